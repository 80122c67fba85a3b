import { z } from 'zod';
import { boundedString, dateTimeText, idField, textField } from '../validation.js';
import { INPUT_MESSAGES } from '../validation-messages.js';
import { businessHoursFields, BusinessHoursSchema } from './business-hours.js';
import { QueueDto } from './queues.js';

export const CHANNELS = ['baileys', 'simulator', 'instagram', 'cloud-api'] as const;
export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;

/** Connection states (§4). */
export const SESSION_STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'TIMEOUT', 'DISCONNECTED'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** States that make the drawer show its '!' badge. */
export const ATTENTION_STATUSES: readonly SessionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/**
 * The WhatsApp Cloud API's credentials of a `cloud-api` connection (issue 18), all optional in the schema: a
 * `cloud-api` connection needs the five (ERR_CLOUD_API_CONFIG otherwise). The token and the app secret are never
 * read back in full (masked in `WhatsappDto.cloud`); an update that leaves them out, or sends them masked, keeps them.
 */
const cloudId = z.string().trim().regex(/^\d{1,30}$/, INPUT_MESSAGES.invalidNumber);
const cloudSecret = z.string().trim().min(1).max(1000);
/** An empty field is a field left out (a form's blank input). */
const blankIsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());
export const CloudApiFields = {
  cloudPhoneNumberId: blankIsAbsent(cloudId),
  cloudBusinessAccountId: blankIsAbsent(cloudId),
  cloudAccessToken: blankIsAbsent(cloudSecret),
  cloudAppSecret: blankIsAbsent(cloudSecret),
  cloudVerifyToken: blankIsAbsent(z.string().trim().min(1).max(200)),
};

/** A `cloud-api` connection's settings as read back: the token and app secret masked. */
export const CloudApiConfigDto = z
  .object({
    phoneNumberId: z.string(),
    businessAccountId: z.string(),
    /** Masked: its last 4 characters only. */
    accessToken: z.string(),
    /** Masked: its last 4 characters only. */
    appSecret: z.string(),
    verifyToken: z.string(),
    /** Path of the webhook to give Meta, after the server's public address: `/api/webhooks/whatsapp/:id`. */
    webhookPath: z.string(),
  })
  .meta({ id: 'CloudApiConfig', description: "A Cloud API connection's settings; the access token and app secret masked (their last 4 characters)." });
export type CloudApiConfigDto = z.infer<typeof CloudApiConfigDto>;

/** How a connection's credential (a Cloud API token or app secret) is read back: bullets and its last 4 characters (settings secrets: maskSecret). */
export function maskCredential(secret: string): string {
  return secret.length <= 4 ? '••••' : `••••${secret.slice(-4)}`;
}

export const WhatsappInput = z.object({
  name: boundedString(2, 50),
  greetingMessage: textField(30000).default(''),
  farewellMessage: textField(30000).default(''),
  isDefault: z.boolean().default(false),
  queueIds: z.array(idField).max(500).default([]),
  channel: Channel.default('baileys'),
  /** The default opening schedule, before a queue is chosen (issue 36 §3); null = always open. */
  businessHours: businessHoursFields.businessHours.default(null),
  outOfHoursMessage: businessHoursFields.outOfHoursMessage.default(''),
  ...CloudApiFields,
});
export type WhatsappInput = z.input<typeof WhatsappInput>;

/** Only the fields sent change: no defaults here (zod's partial() would still apply them). */
export const WhatsappUpdateInput = z.object({
  name: boundedString(2, 50).optional(),
  greetingMessage: textField(30000).optional(),
  farewellMessage: textField(30000).optional(),
  isDefault: z.boolean().optional(),
  queueIds: z.array(idField).max(500).optional(),
  channel: Channel.optional(),
  businessHours: businessHoursFields.businessHours.optional(),
  outOfHoursMessage: businessHoursFields.outOfHoursMessage.optional(),
  ...CloudApiFields,
});
export type WhatsappUpdateInput = z.input<typeof WhatsappUpdateInput>;

/**
 * Why a connection last failed: `logged_out` (the phone removed this device), `qr_timeout` (nobody scanned
 * the QR code in time), `connection_lost` (the network dropped the connection; reconnects with backoff),
 * `start_failed` (the driver could not start), `no_driver` (the server runs no driver for the channel).
 */
export const CONNECTION_ERROR_CODES = ['logged_out', 'qr_timeout', 'connection_lost', 'start_failed', 'no_driver'] as const;
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

export const ConnectionErrorDto = z
  .object({
    code: z.enum(CONNECTION_ERROR_CODES),
    /** The network's own reason, when it gave one (e.g. `connectionClosed`, `status 503`). */
    detail: z.string().optional(),
    /** When it failed. */
    at: dateTimeText,
  })
  .meta({ id: 'ConnectionError' });
export type ConnectionErrorDto = z.infer<typeof ConnectionErrorDto>;

export const WhatsappSessionDto = z.object({
  id: z.number().int(),
  status: z.enum(SESSION_STATUSES),
  /** The QR code to scan while `qrcode` (admins only; '' for attendants). */
  qrcode: z.string(),
  retries: z.number().int(),
  updatedAt: dateTimeText,
  /**
   * The last failure since the connection was last CONNECTED (null once it connects, or when the process
   * running it knows none). Kept in that process's memory: absent after a restart.
   */
  lastError: ConnectionErrorDto.nullable().optional(),
});
export type WhatsappSessionDto = z.infer<typeof WhatsappSessionDto>;

export const WhatsappDto = WhatsappSessionDto.extend({
  name: z.string(),
  channel: Channel,
  isDefault: z.boolean(),
  greetingMessage: z.string(),
  farewellMessage: z.string(),
  /** The default opening schedule, before a queue is chosen (issue 36 §3); null = always open. */
  businessHours: BusinessHoursSchema.nullable(),
  outOfHoursMessage: z.string(),
  queues: z.array(QueueDto),
  createdAt: dateTimeText,
  /** Only on `cloud-api` connections (issue 18), for admins. */
  cloud: CloudApiConfigDto.nullable().optional(),
}).meta({ id: 'Whatsapp', description: 'A connection (WhatsApp, simulator, Instagram or Cloud API), its session state and queues.' });
export type WhatsappDto = z.infer<typeof WhatsappDto>;

/** The Graph API's message templates (`GET /{waba-id}/message_templates`), as the chat offers them. */
export const CloudTemplateDto = z
  .object({
    name: z.string(),
    language: z.string(),
    status: z.string(),
    category: z.string(),
    /** The body's text with its {{1}}… placeholders. */
    body: z.string(),
    /** How many {{n}} placeholders the body has. */
    variables: z.number().int(),
  })
  .meta({ id: 'CloudTemplate' });
export type CloudTemplateDto = z.infer<typeof CloudTemplateDto>;

/** The job that stores what one Cloud API webhook call brought (issue 18): the connection and the call's JSON body. */
export const CloudWebhookJobPayload = z.object({
  whatsappId: idField,
  body: z.record(z.string(), z.unknown()),
});
export type CloudWebhookJobPayload = z.infer<typeof CloudWebhookJobPayload>;

/** Sends an approved template on a `cloud-api` connection (issue 18): its name, language and the body's {{n}} values in order. */
export const TemplateSendInput = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(15),
  variables: z.array(z.string().trim().min(1).max(1000)).max(50).default([]),
});
export type TemplateSendInput = z.input<typeof TemplateSendInput>;

/**
 * The template a bulk send or a scheduled message goes out as (issue 18): required on a `cloud-api` connection
 * (ERR_CLOUD_API_TEMPLATE_REQUIRED), refused on the other channels (ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED).
 */
export const MessageTemplateField = TemplateSendInput;
export type MessageTemplate = z.output<typeof MessageTemplateField>;
