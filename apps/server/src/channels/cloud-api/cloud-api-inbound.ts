import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ValidationIssue } from '@wadesk/contracts';
import type { Ack, InboundMessage } from '../channel-driver.js';
import { fieldOf, itemsOf, timestampIssue, webhookTime } from '../webhook-time.js';
import type { GraphClient } from './graph-client.js';

/** Whether `X-Hub-Signature-256` is `sha256=` and the HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The signature Meta puts on a webhook call (the fake Graph server signs with it too). */
export function signatureOf(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

interface WebhookMedia {
  id: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
}

/** One message of a webhook's `value.messages`, as the Cloud API sends it. */
export interface WebhookMessage {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  context?: { from?: string; id?: string };
  text?: { body: string };
  image?: WebhookMedia;
  audio?: WebhookMedia;
  video?: WebhookMedia;
  document?: WebhookMedia;
  sticker?: WebhookMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string; wa_id?: string }[] }[];
  interactive?: { type: string; button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string; description?: string } };
  button?: { text: string; payload?: string };
  reaction?: { message_id: string; emoji?: string };
}

export interface WebhookStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | string;
  timestamp?: string;
  recipient_id: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

export interface WebhookPayload {
  object?: string;
  entry?: {
    id?: string;
    changes?: {
      field?: string;
      value?: {
        metadata?: { phone_number_id?: string; display_phone_number?: string };
        contacts?: { profile?: { name?: string }; wa_id: string }[];
        messages?: WebhookMessage[];
        statuses?: WebhookStatus[];
      };
    }[];
  }[];
}

export interface StatusUpdate {
  id: string;
  chatId: string;
  /** 1 sent, 2 delivered, 3 read; null when it failed. */
  ack: Ack | null;
  /** Why it failed, in words (`failed` statuses). */
  error?: string;
}

const ACKS: Record<string, Ack> = { sent: 1, delivered: 2, read: 3 };

function digits(value: string): string {
  return value.replace(/\D/g, '');
}

function vcardOf(name: string, phones: { phone?: string; wa_id?: string }[]): string {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`];
  for (const p of phones) {
    const number = p.wa_id ?? digits(p.phone ?? '');
    lines.push(p.wa_id ? `TEL;type=CELL;waid=${p.wa_id}:${p.phone ?? `+${p.wa_id}`}` : `TEL;type=CELL:${p.phone ?? number}`);
  }
  lines.push('END:VCARD');
  return lines.join('\n');
}

/**
 * The first message or status of a webhook call whose `timestamp` is not Unix seconds (required on messages, checked
 * on statuses when present), as a validation issue; null when all are. Checked before the call is acknowledged, so a
 * garbage timestamp is refused (Meta sees the 400) rather than taken and then failed by the job.
 */
export function webhookTimestampIssue(payload: unknown): ValidationIssue | null {
  for (const [e, entry] of itemsOf(fieldOf(payload, 'entry')).entries()) {
    for (const [c, change] of itemsOf(fieldOf(entry, 'changes')).entries()) {
      const value = fieldOf(change, 'value');
      const at = `entry.${e}.changes.${c}.value`;
      for (const [m, message] of itemsOf(fieldOf(value, 'messages')).entries()) {
        const issue = timestampIssue(fieldOf(message, 'timestamp'), 'seconds', `${at}.messages.${m}.timestamp`);
        if (issue) return issue;
      }
      for (const [s, status] of itemsOf(fieldOf(value, 'statuses')).entries()) {
        const timestamp = fieldOf(status, 'timestamp');
        const issue = timestamp === undefined ? null : timestampIssue(timestamp, 'seconds', `${at}.statuses.${s}.timestamp`);
        if (issue) return issue;
      }
    }
  }
  return null;
}

/**
 * The messages and statuses of one webhook call, for the phone number `phoneNumberId` (other numbers' changes
 * are skipped), normalized as every driver does. Media bytes are fetched through `graph` only when stored.
 */
export function readWebhook(payload: WebhookPayload, phoneNumberId: string, graph: GraphClient): { messages: InboundMessage[]; statuses: StatusUpdate[] } {
  const messages: InboundMessage[] = [];
  const statuses: StatusUpdate[] = [];
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const value = change.value;
      if (change.field !== 'messages' || !value) continue;
      const forNumber = value.metadata?.phone_number_id;
      if (forNumber && forNumber !== phoneNumberId) continue;
      const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
      for (const m of value.messages ?? []) {
        const message = normalize(m, names.get(m.from), graph);
        if (message) messages.push(message);
      }
      for (const s of value.statuses ?? []) {
        const error = s.status === 'failed' ? (s.errors ?? []).map((e) => [e.title ?? e.message, e.error_data?.details, e.code !== undefined ? `(code ${e.code})` : ''].filter(Boolean).join(' ')).join('; ') || 'failed' : undefined;
        const ack = ACKS[s.status] ?? null;
        if (ack === null && s.status !== 'failed') continue;
        statuses.push({ id: s.id, chatId: digits(s.recipient_id), ack, error });
      }
    }
  }
  return { messages, statuses };
}

function normalize(m: WebhookMessage, chatName: string | undefined, graph: GraphClient): InboundMessage | null {
  const base = {
    id: m.id,
    fromMe: false,
    chatId: digits(m.from),
    chatName,
    isGroup: false,
    quotedId: m.context?.id,
    // Checked by the webhook before the call was taken (webhookTimestampIssue).
    timestamp: webhookTime(m.timestamp, 'seconds') ?? new Date(),
  };
  const media = (item: WebhookMedia, ptt = false) => ({
    mimetype: item.mime_type ?? 'application/octet-stream',
    filename: item.filename,
    ptt,
    download: async () => (await graph.downloadMedia(item.id)).data,
  });
  switch (m.type) {
    case 'text':
      return { ...base, kind: 'text', body: m.text?.body ?? '' };
    case 'image':
    case 'video':
    case 'sticker':
    case 'document': {
      const item = m[m.type];
      if (!item) return null;
      return { ...base, kind: m.type, body: item.caption ?? (m.type === 'document' ? (item.filename ?? '') : ''), media: media(item) };
    }
    case 'audio':
      if (!m.audio) return null;
      return { ...base, kind: 'audio', body: '', media: media(m.audio, m.audio.voice ?? false) };
    case 'location': {
      const l = m.location;
      if (!l) return null;
      const description = [l.name, l.address].filter(Boolean).join(', ') || undefined;
      return { ...base, kind: 'location', body: `${l.latitude},${l.longitude}|${description ?? ''}`, location: { latitude: l.latitude, longitude: l.longitude, description } };
    }
    case 'contacts': {
      const c = m.contacts?.[0];
      if (!c) return null;
      const displayName = c.name?.formatted_name ?? '';
      const vcard = vcardOf(displayName, c.phones ?? []);
      const numbers = (c.phones ?? []).map((p) => p.wa_id ?? digits(p.phone ?? '')).filter(Boolean);
      return { ...base, kind: 'vcard', body: vcard, vcard: { displayName, vcard, numbers } };
    }
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      return { ...base, kind: 'text', body: reply?.title ?? '' };
    }
    case 'button':
      return { ...base, kind: 'text', body: m.button?.text ?? '' };
    case 'reaction':
      // A reaction is shown as its emoji, replying to the message it reacts to; an emptied reaction is skipped.
      if (!m.reaction?.emoji) return null;
      return { ...base, kind: 'text', body: m.reaction.emoji, quotedId: m.reaction.message_id };
    default:
      return { ...base, kind: 'text', body: `[${m.type}]` };
  }
}
