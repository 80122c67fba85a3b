import {
  getContentType,
  isJidBroadcast,
  isJidNewsletter,
  isJidStatusBroadcast,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { Ack, InboundKind, InboundMedia, InboundMessage } from '../channel-driver.js';
import { groupIdOf, isGroupJid, isLidJid, isPhoneJid, jidUser } from './baileys-jid.js';

/** What normalizing needs from the live socket. */
export interface InboundContext {
  /** Fetches a media message's bytes (called lazily by `media.download()`). */
  download(message: WAMessage): Promise<Buffer>;
  /** The phone-number JID behind a LID, when the network told us. */
  phoneJidForLid(lid: string): Promise<string | null>;
  /** A group's subject, when known. */
  groupSubject(groupJid: string): Promise<string | undefined>;
  /** History: a reference to fetch the media again later (`media.ref`). */
  mediaRef?(message: WAMessage): string;
}

type Content = proto.IMessage;

interface Rendered {
  kind: InboundKind;
  body: string;
  media?: { mimetype: string; filename?: string; ptt?: boolean; seconds?: number };
  location?: InboundMessage['location'];
  vcard?: InboundMessage['vcard'];
}

/** Baileys' WebMessageInfo.Status (ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5) → our ack. */
export function ackFromStatus(status: number | null | undefined): Ack | null {
  const S = proto.WebMessageInfo.Status;
  switch (status) {
    case S.PENDING:
      return 0;
    case S.SERVER_ACK:
      return 1;
    case S.DELIVERY_ACK:
      return 2;
    case S.READ:
      return 3;
    case S.PLAYED:
      return 4;
    default:
      return null;
  }
}

/** Numbers a vcard names: WhatsApp ids (`waid=`) first, else the digits of its TEL lines. */
export function vcardNumbers(vcard: string): string[] {
  const waids = [...vcard.matchAll(/waid=(\d+)/gi)].map((m) => m[1]);
  if (waids.length > 0) return [...new Set(waids)];
  const tels = [...vcard.matchAll(/^TEL[^:]*:(.+)$/gim)].map((m) => m[1].replace(/\D/g, '')).filter(Boolean);
  return [...new Set(tels)];
}

function renderContent(content: Content): Rendered | null {
  if (content.conversation != null) return { kind: 'text', body: content.conversation };
  if (content.extendedTextMessage) return { kind: 'text', body: content.extendedTextMessage.text ?? '' };
  if (content.imageMessage) {
    const m = content.imageMessage;
    return { kind: 'image', body: m.caption ?? '', media: { mimetype: m.mimetype ?? 'image/jpeg' } };
  }
  if (content.videoMessage || content.ptvMessage) {
    const m = (content.videoMessage ?? content.ptvMessage) as proto.Message.IVideoMessage;
    return { kind: 'video', body: m.caption ?? '', media: { mimetype: m.mimetype ?? 'video/mp4' } };
  }
  if (content.audioMessage) {
    const m = content.audioMessage;
    const seconds = m.seconds ? Number(m.seconds) : undefined;
    return { kind: 'audio', body: '', media: { mimetype: m.mimetype ?? 'audio/ogg; codecs=opus', ptt: Boolean(m.ptt), ...(seconds ? { seconds } : {}) } };
  }
  if (content.documentMessage) {
    const m = content.documentMessage;
    const filename = m.fileName ?? m.title ?? undefined;
    return {
      kind: 'document',
      body: m.caption ?? filename ?? '',
      media: { mimetype: m.mimetype ?? 'application/octet-stream', filename },
    };
  }
  if (content.stickerMessage) {
    return { kind: 'sticker', body: '', media: { mimetype: content.stickerMessage.mimetype ?? 'image/webp' } };
  }
  const place = content.locationMessage ?? content.liveLocationMessage;
  if (place) {
    const latitude = place.degreesLatitude ?? 0;
    const longitude = place.degreesLongitude ?? 0;
    const named = content.locationMessage
      ? [content.locationMessage.name, content.locationMessage.address]
      : [content.liveLocationMessage?.caption];
    const description = named.filter((part): part is string => Boolean(part)).join(' - ') || undefined;
    const thumbnail = place.jpegThumbnail;
    return {
      kind: 'location',
      body: description ? `${latitude},${longitude}|${description}` : `${latitude},${longitude}`,
      location: {
        latitude,
        longitude,
        description,
        thumbnailJpeg: thumbnail && thumbnail.length > 0 ? Buffer.from(thumbnail) : undefined,
      },
    };
  }
  const cards = content.contactMessage
    ? [content.contactMessage]
    : (content.contactsArrayMessage?.contacts ?? []);
  if (cards.length > 0) {
    const vcard = cards.map((c) => c.vcard ?? '').join('\n');
    const displayName =
      cards.map((c) => c.displayName ?? '').filter(Boolean).join(', ') || content.contactsArrayMessage?.displayName || '';
    return { kind: 'vcard', body: vcard, vcard: { displayName, vcard, numbers: vcardNumbers(vcard) } };
  }
  const reply =
    content.buttonsResponseMessage?.selectedDisplayText ??
    content.templateButtonReplyMessage?.selectedDisplayText ??
    content.listResponseMessage?.title;
  if (reply != null) return { kind: 'text', body: reply };
  return null;
}

function quotedIdOf(content: Content): string | undefined {
  const type = getContentType(content);
  if (!type) return undefined;
  const inner: unknown = content[type];
  if (typeof inner !== 'object' || inner === null || !('contextInfo' in inner)) return undefined;
  const contextInfo = (inner as { contextInfo?: proto.IContextInfo | null }).contextInfo;
  return contextInfo?.stanzaId ?? undefined;
}

/** Phone number (digits) of a user JID, resolving a LID through its alternate or the LID mapping. */
async function numberOf(jid: string, alt: string | null | undefined, ctx: InboundContext): Promise<string> {
  if (isPhoneJid(jid)) return jidUser(jid);
  if (isPhoneJid(alt)) return jidUser(alt);
  if (isLidJid(jid)) {
    const phone = await ctx.phoneJidForLid(jid).catch(() => null);
    if (phone) return jidUser(phone);
  }
  return jidUser(jid);
}

function timestampOf(message: WAMessage): Date {
  const seconds = toNumber(message.messageTimestamp);
  return seconds > 0 ? new Date(seconds * 1000) : new Date();
}

/**
 * One Baileys message to our normalized inbound message; null for what the desk does not show
 * (status broadcasts, newsletters, protocol messages, removed reactions, stubs, unsupported content).
 */
export async function normalizeMessage(message: WAMessage, ctx: InboundContext): Promise<InboundMessage | null> {
  const key = message.key;
  const remoteJid = key.remoteJid;
  const id = key.id;
  if (!remoteJid || !id) return null;
  if (isJidStatusBroadcast(remoteJid) || isJidBroadcast(remoteJid) || isJidNewsletter(remoteJid)) return null;

  const content = normalizeMessageContent(message.message);
  if (!content || content.protocolMessage) return null;
  // A reaction is stored as the Cloud API's are: its emoji, replying to the message it reacts to (issue 18); a
  // removed reaction (empty text) is skipped.
  const reaction = content.reactionMessage;
  const reactedId = reaction?.key?.id;
  if (reaction && (!reaction.text || !reactedId)) return null;
  const rendered: Rendered | null = reaction ? { kind: 'text', body: reaction.text! } : renderContent(content);
  if (!rendered) return null;

  const fromMe = Boolean(key.fromMe);
  const isGroup = isGroupJid(remoteJid);
  let chatId: string;
  let chatName: string | undefined;
  let participant: InboundMessage['participant'];
  if (isGroup) {
    chatId = groupIdOf(remoteJid);
    chatName = await ctx.groupSubject(remoteJid).catch(() => undefined);
    const author = key.participant ?? message.participant;
    if (author && !fromMe) {
      participant = { number: await numberOf(author, key.participantAlt, ctx), name: message.pushName ?? undefined };
    }
  } else {
    chatId = await numberOf(remoteJid, key.remoteJidAlt, ctx);
    chatName = fromMe ? undefined : (message.pushName ?? undefined);
  }

  let media: InboundMedia | undefined;
  if (rendered.media) {
    const { mimetype, filename, ptt, seconds } = rendered.media;
    media = { mimetype, filename, ptt, ...(seconds ? { seconds } : {}), download: () => ctx.download(message) };
    if (ctx.mediaRef) media.ref = ctx.mediaRef(message);
  }

  return {
    id,
    fromMe,
    chatId,
    chatName,
    isGroup,
    participant,
    kind: rendered.kind,
    body: rendered.body,
    media,
    location: rendered.location,
    vcard: rendered.vcard,
    quotedId: reactedId ?? quotedIdOf(content),
    timestamp: timestampOf(message),
  };
}
