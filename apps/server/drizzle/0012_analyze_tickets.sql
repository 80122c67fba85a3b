-- The expression index tickets_protocol_lower_idx (0008) has no statistics until the table is analyzed: without them the
-- planner guesses 0.5 % of the tickets match a protocol and reads every ticket for a search (issue 11 measured 39 req/s
-- instead of 323 for a rare word). Analyze once here; autovacuum keeps them after.
ANALYZE "tickets";
