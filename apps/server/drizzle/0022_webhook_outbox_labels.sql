ALTER TABLE "webhook_outbox" ADD COLUMN "label_ids" integer[];--> statement-breakpoint
-- A ticket event's labels as its change left them (decision 0045): 0021's rows left them to be read when the event was
-- recorded, so an assignment recorded after a label was added showed the label. The ticket's triggers now store the
-- label ids, and a change of its labels stores the ticket's row too; the names of the labels, its contact, queue and
-- attendant are still read when the event is recorded.
CREATE OR REPLACE FUNCTION public.webhook_ticket_label_ids(ticket integer) RETURNS integer[]
LANGUAGE sql STABLE AS $f$
  SELECT coalesce(array_agg(tl.label_id ORDER BY tl.label_id), '{}') FROM ticket_labels tl WHERE tl.ticket_id = ticket
$f$;--> statement-breakpoint
-- One writer for every event, its labels a ticket event's only (0021's five-argument calls reach it through the
-- default; plpgsql resolves the callee when it runs, so the functions that call it need no change).
DROP FUNCTION public.webhook_outbox_write(text, text[], bigint, jsonb, jsonb);--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.webhook_outbox_write(ev text, wanted text[], entity bigint, snapshot jsonb, prev jsonb, labels integer[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $f$
DECLARE
  listeners integer[] := webhook_listeners(wanted);
BEGIN
  IF cardinality(listeners) > 0 THEN
    INSERT INTO webhook_outbox (event, entity_id, tx, "row", previous, label_ids, webhook_ids)
      VALUES (ev, entity, txid_current(), snapshot, prev, labels, listeners);
  END IF;
END
$f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.webhook_outbox_tickets() RETURNS trigger
LANGUAGE plpgsql AS $f$
DECLARE
  labels integer[];
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  labels := webhook_ticket_label_ids(NEW.id);
  IF TG_ARGV[0] = 'created' THEN
    PERFORM webhook_outbox_write('ticket.created', ARRAY['ticket.created', 'ticket.updated'], NEW.id, to_jsonb(NEW), NULL, labels);
  ELSIF TG_ARGV[0] = 'rated' THEN
    PERFORM webhook_outbox_write('csat.received', ARRAY['csat.received'], NEW.id, to_jsonb(NEW), NULL, labels);
  ELSE
    PERFORM webhook_outbox_write('ticket.updated', ARRAY['ticket.updated'], NEW.id, to_jsonb(NEW),
      jsonb_build_object('status', OLD.status, 'queueId', OLD.queue_id, 'userId', OLD.user_id, 'labelIds', to_jsonb(labels)), labels);
  END IF;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.webhook_outbox_ticket_labels() RETURNS trigger
LANGUAGE plpgsql AS $f$
DECLARE
  listeners integer[];
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  listeners := webhook_listeners(ARRAY['ticket.updated']);
  IF cardinality(listeners) = 0 THEN RETURN NULL; END IF;
  INSERT INTO webhook_outbox (event, entity_id, tx, "row", previous, label_ids, webhook_ids)
    SELECT 'ticket.updated', t.id, txid_current(), to_jsonb(t),
      jsonb_build_object('status', t.status, 'queueId', t.queue_id, 'userId', t.user_id, 'labelIds', coalesce((
        SELECT jsonb_agg(b.label_id ORDER BY b.label_id) FROM (
          SELECT tl.label_id FROM ticket_labels tl WHERE tl.ticket_id = t.id AND (TG_OP = 'DELETE' OR tl.label_id NOT IN (SELECT c.label_id FROM changed c WHERE c.ticket_id = t.id))
          UNION
          SELECT c.label_id FROM changed c WHERE c.ticket_id = t.id AND TG_OP = 'DELETE') b), '[]'::jsonb)),
      webhook_ticket_label_ids(t.id),
      listeners
    FROM tickets t WHERE t.id IN (SELECT DISTINCT c.ticket_id FROM changed c)
    ORDER BY t.id;
  RETURN NULL;
END
$f$;
