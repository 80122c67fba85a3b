-- Issue 11: a ticket's DTO carries when its newest message was created. Read from messages on every list page, that
-- was one index probe a ticket (a sixth of the open list's database time); the ticket now keeps it. Triggers on
-- messages keep it whoever writes messages (live, sent, imported history, removed, moved): the busy paths write it
-- themselves in the statement that stores the message, and the insert trigger then finds nothing left to change.
ALTER TABLE "tickets" ADD COLUMN "last_message_at" timestamp with time zone;--> statement-breakpoint
UPDATE "tickets" t SET "last_message_at" = m.at
  FROM (SELECT "ticket_id", max("created_at") AS at FROM "messages" GROUP BY "ticket_id") m
  WHERE t."id" = m."ticket_id";--> statement-breakpoint
-- New messages: a ticket's time moves forward to the newest of them, never back (history older than it).
CREATE OR REPLACE FUNCTION public.tickets_last_message_at_add() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  UPDATE public.tickets t SET last_message_at = k.at
    FROM (SELECT ticket_id, max(created_at) AS at FROM changed GROUP BY ticket_id) k
    WHERE t.id = k.ticket_id AND (t.last_message_at IS NULL OR t.last_message_at < k.at);
  RETURN NULL;
END
$f$;--> statement-breakpoint
-- The time of these tickets read again from the messages they have.
CREATE OR REPLACE FUNCTION public.tickets_last_message_at_read(ids integer[]) RETURNS void LANGUAGE sql AS $f$
  UPDATE public.tickets t SET last_message_at = (SELECT max(m.created_at) FROM public.messages m WHERE m.ticket_id = t.id)
    WHERE t.id = ANY (ids);
$f$;--> statement-breakpoint
-- Removed messages: their tickets are read again.
CREATE OR REPLACE FUNCTION public.tickets_last_message_at_reread() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM public.tickets_last_message_at_read(ARRAY(SELECT DISTINCT ticket_id FROM changed));
  RETURN NULL;
END
$f$;--> statement-breakpoint
-- A message moved to another ticket or given another time: both tickets are read again.
CREATE OR REPLACE FUNCTION public.tickets_last_message_at_move() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM public.tickets_last_message_at_read(ARRAY[OLD.ticket_id, NEW.ticket_id]);
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "messages_last_message_at_insert" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION public.tickets_last_message_at_add();--> statement-breakpoint
CREATE TRIGGER "messages_last_message_at_delete" AFTER DELETE ON "messages" REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION public.tickets_last_message_at_reread();--> statement-breakpoint
-- Acks, edits and the like change neither column and call nothing.
CREATE TRIGGER "messages_last_message_at_update" AFTER UPDATE OF "ticket_id", "created_at" ON "messages" FOR EACH ROW
  WHEN (OLD.ticket_id IS DISTINCT FROM NEW.ticket_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION public.tickets_last_message_at_move();
