-- Ticket search by words (docs/decisions/0012-ticket-search.md): each ticket's message words, folded (lower case,
-- no accents) and without positions, in one tsvector per ticket under a GIN index. A search finds the tickets
-- holding every word of the query as a word prefix without reading messages; a common word costs the tickets
-- that hold it, not the messages. The database keeps the words itself: a statement trigger on messages adds
-- the words of every inserted message (one upsert per ticket per statement), whoever inserts them.
-- Words are runs of letters and digits ('PED-48213' is 'ped' and '48213'; 'ana@loja.com' is 'ana', 'loja', 'com'),
-- the same for messages and for searches, so a search finds what it shows.
CREATE OR REPLACE FUNCTION public.search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $f$ SELECT regexp_replace(public.f_unaccent(lower($1)), '[^[:alnum:]]+', ' ', 'g') $f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.search_words(text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $f$ SELECT strip(to_tsvector('simple'::regconfig, public.search_fold($1))) $f$;--> statement-breakpoint
-- The query of a search text: every word, folded, as a prefix ('joão ara' → 'joao':* & 'ara':*); a text without
-- words ('%%') gives NULL, which matches nothing.
CREATE OR REPLACE FUNCTION public.search_query(text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $f$ SELECT to_tsquery('simple'::regconfig, string_agg(quote_literal(lexeme) || ':*', ' & '))
         FROM unnest(to_tsvector('simple'::regconfig, public.search_fold($1))) $f$;--> statement-breakpoint
CREATE TABLE "ticket_search" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"words" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "ticket_search" ("ticket_id", "words")
  SELECT "ticket_id", public.search_words(string_agg("body", ' ')) FROM "messages" GROUP BY "ticket_id";--> statement-breakpoint
CREATE INDEX "ticket_search_words_idx" ON "ticket_search" USING gin ("words");--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.ticket_search_add_messages() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO public.ticket_search (ticket_id, words)
    SELECT ticket_id, public.search_words(string_agg(body, ' ')) FROM inserted GROUP BY ticket_id
    ON CONFLICT (ticket_id) DO UPDATE SET words = public.ticket_search.words || excluded.words
    -- A message of words the ticket already has ("ok", "obrigado") leaves the row and its index alone.
    WHERE public.ticket_search.words IS DISTINCT FROM public.ticket_search.words || excluded.words;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "messages_ticket_search" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION public.ticket_search_add_messages();--> statement-breakpoint
DROP INDEX "messages_search_text_trgm_idx";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "search_text";--> statement-breakpoint
DROP INDEX "tickets_status_updated_idx";--> statement-breakpoint
CREATE INDEX "tickets_status_group_updated_idx" ON "tickets" USING btree ("status","is_group","updated_at","id");--> statement-breakpoint
CREATE INDEX "contacts_email_trgm_idx" ON "contacts" USING gin (lower("email") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "tickets_created_idx" ON "tickets" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "tickets_updated_idx" ON "tickets" USING btree ("updated_at","id");