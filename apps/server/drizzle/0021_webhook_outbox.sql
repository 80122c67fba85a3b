CREATE TABLE "webhook_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event" varchar(40) NOT NULL,
	"entity_id" bigint NOT NULL,
	"tx" bigint NOT NULL,
	"row" jsonb,
	"previous" jsonb,
	"webhook_ids" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Outgoing webhooks' events, written in the transaction of the change (issue 37 §3, decision 0045): a process that
-- stops after the change commits no longer loses its event. Each trigger writes a row only when an active webhook
-- listens to the event; a desk without webhooks pays one look at its (empty) webhooks table a row changed, first
-- thing in each function (half the cost of asking which webhooks listen: ~7 µs against ~15 µs a row on PostgreSQL 15).
CREATE OR REPLACE FUNCTION public.webhook_listeners(wanted text[]) RETURNS integer[]
LANGUAGE sql STABLE AS $f$
  SELECT coalesce(array_agg(w.id ORDER BY w.id), '{}') FROM webhooks w WHERE w.active AND w.events ?| wanted
$f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.webhook_outbox_write(ev text, wanted text[], entity bigint, snapshot jsonb, prev jsonb) RETURNS void
LANGUAGE plpgsql AS $f$
DECLARE
  listeners integer[] := webhook_listeners(wanted);
BEGIN
  IF cardinality(listeners) > 0 THEN
    INSERT INTO webhook_outbox (event, entity_id, tx, "row", previous, webhook_ids)
      VALUES (ev, entity, txid_current(), snapshot, prev, listeners);
  END IF;
END
$f$;--> statement-breakpoint
-- A message stored (in or out, notes included) or its ack, deletion or delivery failure changed. History imported
-- from a phone (`wadesk.webhooks_quiet` set in its transaction) is old news, not told.
CREATE OR REPLACE FUNCTION public.webhook_outbox_messages() RETURNS trigger
LANGUAGE plpgsql AS $f$
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    IF coalesce(current_setting('wadesk.webhooks_quiet', true), '') <> 'on' THEN
      PERFORM webhook_outbox_write('message.created', ARRAY['message.created'], NEW.id, to_jsonb(NEW), NULL);
    END IF;
  ELSE
    PERFORM webhook_outbox_write('message.updated', ARRAY['message.updated'], NEW.id, to_jsonb(NEW), NULL);
  END IF;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "messages_webhook_created" AFTER INSERT ON "messages" FOR EACH ROW EXECUTE FUNCTION webhook_outbox_messages();--> statement-breakpoint
CREATE TRIGGER "messages_webhook_updated" AFTER UPDATE ON "messages" FOR EACH ROW
  WHEN (OLD.ack IS DISTINCT FROM NEW.ack OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted OR OLD.send_error IS DISTINCT FROM NEW.send_error)
  EXECUTE FUNCTION webhook_outbox_messages();--> statement-breakpoint
-- A ticket made (told as `ticket.created`, or as an update to a webhook that only hears updates), changed in what its
-- DTO shows (not the times the reports keep), with where it was, or rated (`csat.received`): the trigger's argument
-- says which; each trigger's WHEN keeps the function from running for a change it does not tell. (Triggers of one
-- event fire in the order of their names: a rating's update is written before its csat.received.)
CREATE OR REPLACE FUNCTION public.webhook_outbox_tickets() RETURNS trigger
LANGUAGE plpgsql AS $f$
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  IF TG_ARGV[0] = 'created' THEN
    PERFORM webhook_outbox_write('ticket.created', ARRAY['ticket.created', 'ticket.updated'], NEW.id, to_jsonb(NEW), NULL);
  ELSIF TG_ARGV[0] = 'rated' THEN
    PERFORM webhook_outbox_write('csat.received', ARRAY['csat.received'], NEW.id, to_jsonb(NEW), NULL);
  ELSE
    PERFORM webhook_outbox_write('ticket.updated', ARRAY['ticket.updated'], NEW.id, to_jsonb(NEW),
      jsonb_build_object('status', OLD.status, 'queueId', OLD.queue_id, 'userId', OLD.user_id, 'labelIds',
        coalesce((SELECT jsonb_agg(tl.label_id ORDER BY tl.label_id) FROM ticket_labels tl WHERE tl.ticket_id = NEW.id), '[]'::jsonb)));
  END IF;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "tickets_webhook_created" AFTER INSERT ON "tickets" FOR EACH ROW EXECUTE FUNCTION webhook_outbox_tickets('created');--> statement-breakpoint
CREATE TRIGGER "tickets_webhook_updated" AFTER UPDATE ON "tickets" FOR EACH ROW
  WHEN ((OLD.status, OLD.user_id, OLD.queue_id, OLD.whatsapp_id, OLD.last_message, OLD.unread_messages, OLD.protocol,
         OLD.arrived_out_of_hours, OLD.csat_rating, OLD.csat_comment, OLD.contact_id)
        IS DISTINCT FROM (NEW.status, NEW.user_id, NEW.queue_id, NEW.whatsapp_id, NEW.last_message, NEW.unread_messages, NEW.protocol,
         NEW.arrived_out_of_hours, NEW.csat_rating, NEW.csat_comment, NEW.contact_id))
  EXECUTE FUNCTION webhook_outbox_tickets('updated');--> statement-breakpoint
CREATE TRIGGER "tickets_webhook_updated_rated" AFTER UPDATE ON "tickets" FOR EACH ROW
  WHEN (NEW.csat_rating IS NOT NULL AND NEW.csat_at IS DISTINCT FROM OLD.csat_at)
  EXECUTE FUNCTION webhook_outbox_tickets('rated');--> statement-breakpoint
-- A ticket's labels changed (one statement's rows at once: setting a ticket's labels deletes and adds several): an
-- update of each ticket (read as it is when recorded), with where it was, its labels before the statement included.
CREATE OR REPLACE FUNCTION public.webhook_outbox_ticket_labels() RETURNS trigger
LANGUAGE plpgsql AS $f$
DECLARE
  listeners integer[];
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  listeners := webhook_listeners(ARRAY['ticket.updated']);
  IF cardinality(listeners) = 0 THEN RETURN NULL; END IF;
  INSERT INTO webhook_outbox (event, entity_id, tx, "row", previous, webhook_ids)
    SELECT 'ticket.updated', t.id, txid_current(), NULL,
      jsonb_build_object('status', t.status, 'queueId', t.queue_id, 'userId', t.user_id, 'labelIds', coalesce((
        SELECT jsonb_agg(b.label_id ORDER BY b.label_id) FROM (
          SELECT tl.label_id FROM ticket_labels tl WHERE tl.ticket_id = t.id AND (TG_OP = 'DELETE' OR tl.label_id NOT IN (SELECT c.label_id FROM changed c WHERE c.ticket_id = t.id))
          UNION
          SELECT c.label_id FROM changed c WHERE c.ticket_id = t.id AND TG_OP = 'DELETE') b), '[]'::jsonb)),
      listeners
    FROM tickets t WHERE t.id IN (SELECT DISTINCT c.ticket_id FROM changed c)
    ORDER BY t.id;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "ticket_labels_webhook_added" AFTER INSERT ON "ticket_labels" REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_outbox_ticket_labels();--> statement-breakpoint
CREATE TRIGGER "ticket_labels_webhook_removed" AFTER DELETE ON "ticket_labels" REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_outbox_ticket_labels();--> statement-breakpoint
-- A contact added (by hand, an import, or writing in) or changed: its name, number or e-mail, or saved by someone
-- (not a new profile picture alone). Read as it is when recorded.
CREATE OR REPLACE FUNCTION public.webhook_outbox_contacts() RETURNS trigger
LANGUAGE plpgsql AS $f$
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_outbox_write('contact.created', ARRAY['contact.created'], NEW.id, NULL, NULL);
  ELSE
    PERFORM webhook_outbox_write('contact.updated', ARRAY['contact.updated'], NEW.id, NULL, NULL);
  END IF;
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "contacts_webhook_created" AFTER INSERT ON "contacts" FOR EACH ROW EXECUTE FUNCTION webhook_outbox_contacts();--> statement-breakpoint
CREATE TRIGGER "contacts_webhook_updated" AFTER UPDATE ON "contacts" FOR EACH ROW
  WHEN ((OLD.name, OLD.number, OLD.email, OLD.is_group) IS DISTINCT FROM (NEW.name, NEW.number, NEW.email, NEW.is_group)
        OR (OLD.updated_at IS DISTINCT FROM NEW.updated_at AND OLD.profile_pic_url IS NOT DISTINCT FROM NEW.profile_pic_url))
  EXECUTE FUNCTION webhook_outbox_contacts();--> statement-breakpoint
-- A bulk send (not a send-API message, which is a one-message campaign) reaching done.
CREATE OR REPLACE FUNCTION public.webhook_outbox_campaigns() RETURNS trigger
LANGUAGE plpgsql AS $f$
BEGIN
  IF NOT EXISTS (SELECT FROM webhooks w WHERE w.active) THEN RETURN NULL; END IF;
  PERFORM webhook_outbox_write('campaign.finished', ARRAY['campaign.finished'], NEW.id, NULL, NULL);
  RETURN NULL;
END
$f$;--> statement-breakpoint
CREATE TRIGGER "campaigns_webhook_finished" AFTER UPDATE ON "campaigns" FOR EACH ROW
  WHEN (NEW.status = 'done' AND OLD.status IS DISTINCT FROM 'done' AND NEW.origin = 'campaign')
  EXECUTE FUNCTION webhook_outbox_campaigns();
