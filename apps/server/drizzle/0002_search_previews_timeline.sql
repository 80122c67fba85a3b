-- Search ignores case and accents. unaccent() is only STABLE (it reads a dictionary), so indexes use an
-- IMMUTABLE wrapper naming its dictionary; the extension is also created before migrations (see client.ts).
-- Where we may (superuser: PostgreSQL as installed here, PGlite), the wrapper calls the extension's C function
-- declared IMMUTABLE, so PostgreSQL inlines f_unaccent (a fast call); elsewhere (a managed database without
-- superuser) a plain SQL wrapper, correct but slower per call. Message bodies are folded once, when written
-- (messages.search_text), so the ticket search never folds a body while it runs.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
DO $do$
BEGIN
  CREATE OR REPLACE FUNCTION public.immutable_unaccent(regdictionary, text) RETURNS text
    LANGUAGE c IMMUTABLE PARALLEL SAFE STRICT AS '$libdir/unaccent', 'unaccent_dict';
  CREATE OR REPLACE FUNCTION public.f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $f$ SELECT public.immutable_unaccent('public.unaccent'::regdictionary, $1) $f$;
EXCEPTION WHEN OTHERS THEN -- not allowed (no superuser) or no such file: the portable wrapper
  CREATE OR REPLACE FUNCTION public.f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $f$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $f$;
END
$do$;--> statement-breakpoint
CREATE TABLE "ticket_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"kind" varchar(20) NOT NULL,
	"actor_user_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "contacts_name_trgm_idx";--> statement-breakpoint
DROP INDEX "messages_body_trgm_idx";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sender_kind" varchar(10) DEFAULT 'contact' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "media_duration" integer;--> statement-breakpoint
-- Messages sent from here before this migration: attendants' or automatic, told apart from now on.
UPDATE "messages" SET "sender_kind" = 'user' WHERE "from_me";--> statement-breakpoint
-- The folded body, stored: rechecking a common word's thousands of rows reads it instead of folding each body.
ALTER TABLE "messages" ADD COLUMN "search_text" text GENERATED ALWAYS AS (f_unaccent(lower(body))) STORED;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_events_ticket_created_idx" ON "ticket_events" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "contacts_name_unaccent_trgm_idx" ON "contacts" USING gin (f_unaccent(lower("name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "messages_search_text_trgm_idx" ON "messages" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_unaccent_trgm_idx" ON "users" USING gin (f_unaccent(lower("name")) gin_trgm_ops);