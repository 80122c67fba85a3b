import { z } from 'zod';
import { dateTimeText, hasNoNulCharacter, idField, INPUT_MESSAGES, isWellFormedDataUrl, textField } from '../validation.js';
import { SESSION_STATUSES } from './whatsapp.js';

/** A network-style id or name: trimmed, 1..200 characters, no NUL character. */
const token = () => z.string().trim().min(1).max(200).refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter);

/** Kinds of media the simulator can deliver as a contact's message. */
export const SIMULATOR_MEDIA_TYPES = ['image', 'audio', 'video', 'document', 'sticker', 'location', 'vcard'] as const;

/**
 * `POST /api/simulator/:whatsappId/inbound`: a message from a contact (or a group member) to the connection; with
 * `fromMe`, one the phone's owner typed on the phone to that chat.
 */
export const SimulatorInboundInput = z
  .object({
    id: token().optional(),
    from: z
      .string()
      .transform((s) => s.replace(/\D/g, ''))
      .pipe(z.string().min(5, 'Too Short!').max(30, 'Too Long!')),
    name: textField(200).trim().optional(),
    body: textField(30000).default(''),
    mediaType: z.enum(SIMULATOR_MEDIA_TYPES).optional(),
    /** A `data:` URL (base64) or a path on the app's own origin; the simulator fetches nothing from the network. */
    mediaUrl: z
      .string()
      .max(3 * 1024 * 1024)
      .refine((s) => s.startsWith('data:') || (s.startsWith('/') && !s.startsWith('//')), 'Must be a data: URL or a path')
      .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter)
      .refine((s) => !s.startsWith('data:') || isWellFormedDataUrl(s), INPUT_MESSAGES.invalidDataUrl)
      .optional(),
    quotedId: token().optional(),
    /** Seconds of a voice note (mediaType audio), as the network would tell it. */
    duration: z.coerce.number().int().min(1).max(86400).optional(),
    groupId: token().optional(),
    groupName: textField(200).trim().optional(),
    /** Typed on the phone itself, to `from` (the network reports it as ours from another device). */
    fromMe: z.boolean().optional(),
  })
  .refine((m) => m.body.trim() !== '' || m.mediaType !== undefined, { message: 'Required', path: ['body'] });
export type SimulatorInboundInput = z.input<typeof SimulatorInboundInput>;

/** `POST /api/simulator/:whatsappId/call`: a contact calls the connection (voice, or video) → `{ rejected }`. */
export const SimulatorCallInput = z.object({
  from: z
    .string()
    .transform((s) => s.replace(/\D/g, ''))
    .pipe(z.string().min(5, 'Too Short!').max(30, 'Too Long!')),
  video: z.boolean().optional().default(false),
  name: textField(200).trim().optional(),
});
export type SimulatorCallInput = z.input<typeof SimulatorCallInput>;

/** `POST /api/simulator/:whatsappId/ack`: moves a sent message's delivery state (0..4). */
export const SimulatorAckInput = z.object({
  id: token(),
  ack: z.coerce.number().int().min(0).max(4),
});
export type SimulatorAckInput = z.input<typeof SimulatorAckInput>;

export const SimulatorOutboxQuery = z.object({ to: textField(200).optional() });

/** What the simulated device sent, as `GET /api/simulator/:whatsappId/outbox` lists it. */
export const SimulatorOutboxItemDto = z
  .object({
    id: z.string(),
    /** The chat it went to: a number, or an `@g.us` group id. */
    to: z.string(),
    body: z.string(),
    mediaType: z.string().nullable(),
    /** A signed URL of the sent file (null once the file was dropped to keep the device within its limits). */
    mediaUrl: z.string().nullable(),
    /** 0 pending, 1 sent, 2 delivered, 3 read, 4 played. */
    ack: z.number().int(),
    isDeleted: z.boolean(),
    createdAt: dateTimeText,
  })
  .meta({ id: 'SimulatorOutboxItem' });
export type SimulatorOutboxItemDto = z.infer<typeof SimulatorOutboxItemDto>;

/** The path of the simulator's routes: the simulated connection. */
export const SimulatorParams = z.object({ whatsappId: idField.meta({ description: 'The simulator connection (a connection id).' }) });

/** `POST /api/simulator/:whatsappId/scan`: the connection's state once the scan settled (null: no session runs). */
export const SimulatorScanResponse = z.object({ status: z.enum(SESSION_STATUSES).nullable() });
export type SimulatorScanResponse = z.infer<typeof SimulatorScanResponse>;

/** `POST /api/simulator/:whatsappId/inbound`: the message's network id; `duplicate` when that id was stored before (200). */
export const SimulatorInboundResponse = z.object({ id: z.string(), duplicate: z.boolean() });
export type SimulatorInboundResponse = z.infer<typeof SimulatorInboundResponse>;

/** `POST /api/simulator/:whatsappId/call`: whether the desk rejected the call (setting acceptCalls off). */
export const SimulatorCallResponse = z.object({ rejected: z.boolean() });
export type SimulatorCallResponse = z.infer<typeof SimulatorCallResponse>;

/** `POST /api/simulator/:whatsappId/history`: how many messages were kept. */
export const SimulatorHistoryResponse = z.object({ received: z.number().int() });
export type SimulatorHistoryResponse = z.infer<typeof SimulatorHistoryResponse>;

/** `POST /api/simulator/:whatsappId/groups`: a group the simulated phone is in (and admin of). */
export const SimulatorGroupInput = z.object({
  subject: textField(100).trim().min(1, 'Required'),
  participants: z
    .array(z.string().transform((s) => s.replace(/\D/g, '')).pipe(z.string().min(5, 'Too Short!').max(30, 'Too Long!')))
    .max(1024)
    .default([]),
  description: textField(2048).trim().optional(),
});
export type SimulatorGroupInput = z.input<typeof SimulatorGroupInput>;

/** A group of the simulated phone (`GET /api/simulator/:whatsappId/groups`). */
export const SimulatorGroupDto = z
  .object({
    /** An `@g.us` id. */
    id: z.string(),
    subject: z.string(),
    description: z.string().nullable(),
    /** Member numbers, the phone's own included. */
    participants: z.array(z.string()),
    /** Only admins may send. */
    announce: z.boolean(),
  })
  .meta({ id: 'SimulatorGroup' });
export type SimulatorGroupDto = z.infer<typeof SimulatorGroupDto>;

/** `POST /api/simulator/:whatsappId/groups`: the new group's `@g.us` id. */
export const SimulatorGroupCreatedResponse = z.object({ id: z.string() });
export type SimulatorGroupCreatedResponse = z.infer<typeof SimulatorGroupCreatedResponse>;

/** `GET /api/simulator/:whatsappId/contacts`: the simulated phone, the chats it knows (newest first) and its groups. */
export const SimulatorPhoneDto = z
  .object({
    status: z.enum(SESSION_STATUSES).nullable(),
    /** The QR code waiting to be scanned, or ''. */
    qrcode: z.string(),
    /** The phone's own number. */
    number: z.string(),
    contacts: z.array(z.object({ number: z.string(), name: z.string().nullable(), lastAt: dateTimeText })),
    groups: z.array(
      z.object({
        id: z.string(),
        subject: z.string(),
        description: z.string().optional(),
        participants: z.array(z.object({ number: z.string(), isAdmin: z.boolean() })),
        announce: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'SimulatorPhone' });
export type SimulatorPhoneDto = z.infer<typeof SimulatorPhoneDto>;
