import { z } from 'zod';
import { idField, textField } from '../validation.js';
import { isOggUrl } from './campaigns.js';

/**
 * The send API (§7 auxiliary calls, under /api): the same names and payloads as the tools this product replaces.
 * Each call is authenticated by the setting userApiToken (`token` here, or `Authorization: Bearer <token>`) or
 * a signed-in admin; `ticketwhatsappId` picks the connection (the default one when absent).
 */
const apiToken = z.string().max(500).optional();
const connection = idField.optional();
/** Digits, `digits@c.us` or a group `id@g.us`. */
const recipient = z.string({ error: 'Required' }).trim().min(1, 'Required').max(60, 'Too Long!');
const httpUrl = textField(2000)
  .trim()
  .min(1, 'Required')
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'Must be an http or https URL');

/** `POST /api/zdg`: a text message. */
export const SendTextInput = z.object({
  number: recipient,
  message: textField(30000).trim().min(1, 'Required'),
  token: apiToken,
  ticketwhatsappId: connection,
});

/** `POST /api/sendMedia`, `/api/sendMediaZDG`: a file by URL with a caption. */
export const SendMediaInput = z.object({
  number: recipient,
  url: httpUrl,
  title: textField(1000).trim().optional(),
  token: apiToken,
  ticketwhatsappId: connection,
});

/** `POST /api/sendMediaZDGRec`: an .ogg by URL, as a voice note. */
export const SendVoiceInput = z.object({
  number: recipient,
  url: httpUrl.refine(isOggUrl, 'Only .ogg audio is accepted'),
  token: apiToken,
  ticketwhatsappId: connection,
});

/** `POST /api/zdgGetWppId`: which connection a ticket uses. */
export const GetWppIdInput = z.object({ ticketid: idField, token: apiToken });

/** `POST /api/zdgProtocolo`: a protocol number for a ticket, from the protocol service (§7). */
export const ProtocolInput = z.object({
  usuario: textField(200).trim().optional(),
  protocolo: z.string({ error: 'Required' }).trim().regex(/^[\w-]{1,40}$/, 'Must be 1 to 40 letters, digits or dashes'),
  ticket: idField,
  token: apiToken,
});

/** `POST /api/delContacts`: deletes every contact (and so their tickets and messages). */
export const DeleteAllContactsInput = z.object({ token: apiToken });

/** A send was accepted: it runs as a job (`GET /api/jobs/:id` shows its outcome). */
export interface SendAcceptedResponse {
  jobId: string;
  campaignId: number;
}

export interface ApiConnectionDto {
  id: number;
  name: string;
  status: string;
  isDefault: boolean;
}

/** `GET /api/whatsappzdg`: every connection's status and id, and the ids of the connected ones. */
export interface ApiConnectionsResponse {
  connections: ApiConnectionDto[];
  connectedIds: number[];
}
