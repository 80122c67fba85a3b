import { z } from 'zod';
import { hasNoNulCharacter, INPUT_MESSAGES, isWellFormedDataUrl, textField } from '../validation.js';

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
export interface SimulatorOutboxItemDto {
  id: string;
  to: string;
  body: string;
  mediaType: string | null;
  mediaUrl: string | null;
  ack: number;
  isDeleted: boolean;
  createdAt: string;
}

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
export interface SimulatorGroupDto {
  /** An `@g.us` id. */
  id: string;
  subject: string;
  description: string | null;
  /** Member numbers, the phone's own included. */
  participants: string[];
  /** Only admins may send. */
  announce: boolean;
}
