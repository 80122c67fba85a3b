-- Issue 11: contacts search by a name ("conceicao") checked each trigram candidate again through f_unaccent(lower(name)),
-- a few hundred foldings a search. The folded name is stored, and its trigram index replaces the expression index.
DROP INDEX "contacts_name_unaccent_trgm_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "name_folded" text GENERATED ALWAYS AS (f_unaccent(lower(name))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "contacts_name_folded_trgm_idx" ON "contacts" USING gin ("name_folded" gin_trgm_ops);