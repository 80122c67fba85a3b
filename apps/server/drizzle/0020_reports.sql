CREATE INDEX "messages_attendant_sent_idx" ON "messages" USING btree ("created_at","sent_by_user_id","ticket_id") WHERE "messages"."sender_kind" = 'user' and not "messages"."private" and "messages"."origin" is null and "messages"."sent_by_user_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_first_response_idx" ON "tickets" USING btree ("first_response_at","user_id","queue_id","created_at") WHERE "tickets"."first_response_at" is not null;--> statement-breakpoint
CREATE INDEX "tickets_resolved_idx" ON "tickets" USING btree ("resolved_at","user_id","queue_id","created_at") WHERE "tickets"."resolved_at" is not null;--> statement-breakpoint
CREATE INDEX "tickets_csat_idx" ON "tickets" USING btree ("csat_at","user_id","queue_id","csat_rating") WHERE "tickets"."csat_rating" is not null;--> statement-breakpoint
CREATE INDEX "tickets_report_queue_idx" ON "tickets" USING btree ("id","queue_id");--> statement-breakpoint
-- Issue 36 §6 (decision 0042): a ticket keeps when an attendant first answered it and when it was last resolved, so
-- that the reports read their times from the tickets' own columns through the indexes above. The database keeps
-- them, whoever writes messages or closes tickets (the chat, the auto-close job, history import, the bench seed).
--
-- First response: the first message an attendant (or the phone's owner) typed to the contact (sender_kind 'user',
-- not a note, not a bulk send, the API or a schedule) at or after the ticket was created.
CREATE OR REPLACE FUNCTION public.tickets_first_response_add() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  UPDATE public.tickets t SET first_response_at = k.at
    FROM (SELECT c.ticket_id, min(c.created_at) AS at
            FROM changed c JOIN public.tickets o ON o.id = c.ticket_id
            WHERE c.sender_kind = 'user' AND NOT c.private AND (c.origin IS NULL OR c.origin = 'phone') AND c.created_at >= o.created_at
            GROUP BY c.ticket_id) k
    WHERE t.id = k.ticket_id AND (t.first_response_at IS NULL OR t.first_response_at > k.at);
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "messages_first_response_insert" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION public.tickets_first_response_add();--> statement-breakpoint
-- Resolved: when the ticket last became closed. A resolved_at written by the same statement is kept; otherwise the
-- statement's updated_at (the service's clock), else the transaction's time. Reopening keeps the last resolution.
CREATE OR REPLACE FUNCTION public.tickets_resolved_at_set() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.resolved_at IS NULL THEN NEW.resolved_at := NEW.updated_at; END IF;
  ELSIF NEW.resolved_at IS NOT DISTINCT FROM OLD.resolved_at THEN
    NEW.resolved_at := CASE WHEN NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN NEW.updated_at ELSE now() END;
  END IF;
  RETURN NEW;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "tickets_resolved_at_insert" BEFORE INSERT ON "tickets" FOR EACH ROW
  WHEN (NEW.status = 'closed') EXECUTE FUNCTION public.tickets_resolved_at_set();--> statement-breakpoint
CREATE TRIGGER "tickets_resolved_at_update" BEFORE UPDATE OF "status" ON "tickets" FOR EACH ROW
  WHEN (NEW.status = 'closed' AND OLD.status IS DISTINCT FROM 'closed') EXECUTE FUNCTION public.tickets_resolved_at_set();--> statement-breakpoint
-- The tickets of before this migration: the last 'resolved' of their timeline (else their last change), and their
-- first attendant message.
UPDATE "tickets" t SET "resolved_at" = coalesce(
    (SELECT max(e."created_at") FROM "ticket_events" e WHERE e."ticket_id" = t."id" AND e."kind" = 'resolved'), t."updated_at")
  WHERE t."status" = 'closed' AND t."resolved_at" IS NULL;--> statement-breakpoint
UPDATE "tickets" t SET "first_response_at" = k.at
  FROM (SELECT m."ticket_id", min(m."created_at") AS at
          FROM "messages" m JOIN "tickets" o ON o."id" = m."ticket_id"
          WHERE m."sender_kind" = 'user' AND NOT m."private" AND (m."origin" IS NULL OR m."origin" = 'phone') AND m."created_at" >= o."created_at"
          GROUP BY m."ticket_id") k
  WHERE t."id" = k."ticket_id" AND t."first_response_at" IS NULL;--> statement-breakpoint
-- Seconds between t0 and t1 during which a schedule (a queue's business_hours, issue 36 §3) is open: each weekday's
-- intervals as wall-clock times in its time zone (daylight saving included), holidays closed all day. A null
-- schedule is always open. The reports' first response time counts only open time (decision 0042).
CREATE OR REPLACE FUNCTION public.business_seconds(hours jsonb, t0 timestamptz, t1 timestamptz) RETURNS double precision
LANGUAGE sql STABLE PARALLEL SAFE AS $f$
  SELECT CASE
    WHEN t1 IS NULL OR t0 IS NULL THEN NULL
    WHEN t1 <= t0 THEN 0::double precision
    WHEN hours IS NULL THEN extract(epoch FROM t1 - t0)::double precision
    ELSE coalesce((
      SELECT sum(extract(epoch FROM least(t1, o.e) - greatest(t0, o.s)))::double precision
        FROM generate_series((t0 AT TIME ZONE (hours->>'timeZone'))::date - 1, (t1 AT TIME ZONE (hours->>'timeZone'))::date, interval '1 day') AS d(day)
        CROSS JOIN LATERAL jsonb_array_elements(coalesce(hours->'days', '[]'::jsonb)) AS i(iv)
        CROSS JOIN LATERAL (SELECT ((d.day::date + (i.iv->>'start')::time)::timestamp AT TIME ZONE (hours->>'timeZone')) AS s,
                                   ((d.day::date + (i.iv->>'end')::time)::timestamp AT TIME ZONE (hours->>'timeZone')) AS e) o
        WHERE (i.iv->>'weekday')::int = extract(dow FROM d.day)::int
          AND NOT coalesce(hours->'holidays', '[]'::jsonb) ? to_char(d.day, 'YYYY-MM-DD')
          AND o.e > t0 AND o.s < t1 AND o.e > o.s), 0)
  END
$f$;
