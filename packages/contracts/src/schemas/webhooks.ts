import { z } from 'zod';
import { FIELD_MESSAGES, INPUT_MESSAGES, MESSAGES } from '../validation-messages.js';
import { dateTimeText, idField, pageNumberField, textField } from '../validation.js';

/**
 * Outgoing webhooks (issue 37 §3, decision 0045): what the desk tells other systems, signed with each webhook's
 * secret. The event names are a contract: receivers switch on them.
 */
export const WEBHOOK_EVENTS = [
  'message.created',
  'message.updated',
  'ticket.created',
  'ticket.updated',
  'contact.created',
  'contact.updated',
  'campaign.finished',
  'csat.received',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A delivery's state: waiting (first try or a retry), delivered (a 2xx answer), failed (no 2xx within 24 h). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** The page size of a webhook's delivery log. */
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;

const webhookUrlField = textField(2000)
  .trim()
  .min(1, MESSAGES.required)
  .refine((value) => {
    try {
      const url = new URL(value);
      return ['http:', 'https:'].includes(url.protocol) && !url.username && !url.password;
    } catch {
      return false;
    }
  }, FIELD_MESSAGES.httpUrl);

/** A secret: 16 to 200 printable characters (the desk makes a 64-character one when none is given). */
export const webhookSecretField = z
  .string()
  .trim()
  .min(16, MESSAGES.tooShort)
  .max(200, MESSAGES.tooLong)
  .regex(/^[\x21-\x7e]+$/, INPUT_MESSAGES.invalidCharacter);

export const WebhookInput = z.object({
  url: webhookUrlField,
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, MESSAGES.required)
    .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event))),
  /** Omitted or empty: the desk makes one (create), or keeps the current one (change). */
  secret: z.union([webhookSecretField, z.literal('')]).optional(),
  active: z.boolean().default(true),
});
export type WebhookInput = z.input<typeof WebhookInput>;

export const WebhookDto = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    /** Shown to admins only (every route is theirs): the receiver needs it to check the signature. */
    secret: z.string(),
    active: z.boolean(),
    /** Deliveries still waiting and given up, for the list's warning. */
    pending: z.number().int(),
    failed: z.number().int(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'Webhook' });
export type WebhookDto = z.infer<typeof WebhookDto>;

export const WebhookListResponse = z.object({ webhooks: z.array(WebhookDto) });
export type WebhookListResponse = z.infer<typeof WebhookListResponse>;

export const WebhookDeliveryDto = z
  .object({
    id: z.number().int(),
    webhookId: z.number().int(),
    /** The event's id, the same in every attempt and for every webhook: the `id` of the body, to de-duplicate on. */
    eventId: z.string(),
    event: z.enum(WEBHOOK_EVENTS).or(z.literal('webhook.test')),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    /** The receiver's HTTP status at the last attempt; null when it did not answer. */
    responseCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: dateTimeText.nullable(),
    deliveredAt: dateTimeText.nullable(),
    createdAt: dateTimeText,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryDto = z.infer<typeof WebhookDeliveryDto>;

export const WebhookDeliveryListQuery = z.object({ pageNumber: pageNumberField });
export const WebhookDeliveryListResponse = z.object({ deliveries: z.array(WebhookDeliveryDto), count: z.number().int(), hasMore: z.boolean() });
export type WebhookDeliveryListResponse = z.infer<typeof WebhookDeliveryListResponse>;

export const WebhookDeliveryParams = z.object({ id: idField, deliveryId: idField });

/** What `POST /api/webhooks/{id}/test` answers: the test delivery, already tried once. */
export const WebhookTestResponse = WebhookDeliveryDto;

/** A delivery job's payload (pg-boss). */
export const WebhookDeliveryJob = z.object({ deliveryId: z.number().int().positive() });
export type WebhookDeliveryJob = z.infer<typeof WebhookDeliveryJob>;
