-- A contact's tickets carry their ids in the index (issue 35): a ticket search by a contact name of many contacts
-- reads the candidates' ids from the index alone, where with the contact only it was planned as a hash join over a
-- scan of the tickets (half the table before the 1,001st candidate). The index is no larger: an entry takes 16 bytes
-- (its header and keys, aligned to 8) either way.
DROP INDEX "tickets_contact_idx";--> statement-breakpoint
CREATE INDEX "tickets_contact_idx" ON "tickets" USING btree ("contact_id","id");
