-- Issue 11, decision 0024: the ticket lists' tab counts are sums of per-(status, is_group, queue, user) counts, not
-- counts of thousands of tickets a request. The database keeps them itself, whoever writes tickets: triggers write
-- every change as +n/-n rows to ticket_count_changes (insert-only, so concurrent writers never wait for each other),
-- and ticket_counts_fold() moves them into ticket_counts (the app calls it every few seconds). A count reads both
-- tables in one snapshot with the tickets, so it is exact.
CREATE TABLE "ticket_count_changes" (
	"status" varchar(10) NOT NULL,
	"is_group" boolean NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_counts" (
	"status" varchar(10) NOT NULL,
	"is_group" boolean NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"n" bigint NOT NULL,
	CONSTRAINT "ticket_counts_key" UNIQUE NULLS NOT DISTINCT("status","is_group","queue_id","user_id")
);
--> statement-breakpoint
-- The rows a statement inserted count +1 each, the rows it deleted -1: both triggers name them `changed`.
CREATE OR REPLACE FUNCTION public.ticket_counts_add_rows() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO public.ticket_count_changes (status, is_group, queue_id, user_id, n)
    SELECT status, is_group, queue_id, user_id, CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END
    FROM changed GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.ticket_counts_move() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO public.ticket_count_changes (status, is_group, queue_id, user_id, n)
    VALUES (OLD.status, OLD.is_group, OLD.queue_id, OLD.user_id, -1), (NEW.status, NEW.is_group, NEW.queue_id, NEW.user_id, 1);
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.ticket_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  DELETE FROM public.ticket_count_changes;
  DELETE FROM public.ticket_counts;
  RETURN NULL;
END
$f$;--> statement-breakpoint
-- Inserts and deletes (cascades from contacts and connections included): one row per group a statement.
CREATE TRIGGER "tickets_counts_insert" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION public.ticket_counts_add_rows();--> statement-breakpoint
CREATE TRIGGER "tickets_counts_delete" AFTER DELETE ON "tickets" REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION public.ticket_counts_add_rows();--> statement-breakpoint
-- Updates: only a row whose counted columns changed (a new message's update of the ticket calls nothing).
CREATE TRIGGER "tickets_counts_update" AFTER UPDATE OF "status", "is_group", "queue_id", "user_id" ON "tickets" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.is_group IS DISTINCT FROM NEW.is_group
    OR OLD.queue_id IS DISTINCT FROM NEW.queue_id OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION public.ticket_counts_move();--> statement-breakpoint
CREATE TRIGGER "tickets_counts_truncate" AFTER TRUNCATE ON "tickets"
  FOR EACH STATEMENT EXECUTE FUNCTION public.ticket_counts_clear();--> statement-breakpoint
-- Moves the changes into ticket_counts; answers how many change rows it moved. One process at a time (the others
-- skip: their changes are moved by this one or the next call), so that two folds never wait for each other.
CREATE OR REPLACE FUNCTION public.ticket_counts_fold() RETURNS integer LANGUAGE plpgsql AS $f$
DECLARE
  moved_rows integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('wadesk.ticket_counts_fold')) THEN
    RETURN 0;
  END IF;
  WITH moved AS (DELETE FROM public.ticket_count_changes RETURNING status, is_group, queue_id, user_id, n),
  folded AS (
    INSERT INTO public.ticket_counts AS c (status, is_group, queue_id, user_id, n)
      SELECT status, is_group, queue_id, user_id, sum(n) FROM moved GROUP BY 1, 2, 3, 4
      ON CONFLICT (status, is_group, queue_id, user_id) DO UPDATE SET n = c.n + excluded.n
  )
  SELECT count(*) INTO moved_rows FROM moved;
  DELETE FROM public.ticket_counts WHERE n = 0;
  RETURN moved_rows;
END
$f$;--> statement-breakpoint
INSERT INTO "ticket_counts" ("status", "is_group", "queue_id", "user_id", "n")
  SELECT "status", "is_group", "queue_id", "user_id", count(*) FROM "tickets" GROUP BY 1, 2, 3, 4;
