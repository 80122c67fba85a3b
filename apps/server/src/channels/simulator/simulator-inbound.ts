import { randomUUID } from 'node:crypto';
import type { SimulatorHistoryMessage, SimulatorInboundInput } from '@wadesk/contracts';
import type { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { InboundMessage } from '../channel-driver.js';
import { chatIdOf } from './simulator.driver.js';
import type { SimulatorDevice } from './simulator-device.js';
import { simulatorMedia, type LocalFetch } from './simulator-media.js';

export type InboundData = z.output<typeof SimulatorInboundInput>;

function groupIdOf(groupId: string): string {
  return groupId.includes('@') ? groupId : `${groupId.replace(/[^\d-]/g, '')}@g.us`;
}

function parseLocation(body: string): NonNullable<InboundMessage['location']> {
  const [coords = '', description] = body.split('|');
  const [lat, lng] = coords.split(',').map((s) => Number(s.trim()));
  if (lat === undefined || lng === undefined || !Number.isFinite(lat) || !Number.isFinite(lng)) {
    throw new AppError('ERR_VALIDATION', 'body: a location is "latitude,longitude|description"');
  }
  return { latitude: lat, longitude: lng, description: description?.trim() || undefined };
}

function parseVcard(body: string): NonNullable<InboundMessage['vcard']> {
  const displayName = /^FN:(.*)$/m.exec(body)?.[1]?.trim() ?? '';
  const numbers = [...body.matchAll(/waid=(\d+)|^TEL[^:]*:([+\d\s-]+)$/gm)].map((m) => (m[1] ?? m[2] ?? '').replace(/\D/g, ''));
  return { displayName, vcard: body, numbers: [...new Set(numbers.filter(Boolean))] };
}

/** Turns the simulator's inbound request into the normalized inbound message every driver produces. */
export function toInboundMessage(device: SimulatorDevice, input: InboundData, fetchLocal?: LocalFetch): InboundMessage {
  const from = chatIdOf(input.from);
  const groupId = input.groupId ? groupIdOf(input.groupId) : undefined;
  const message: InboundMessage = {
    id: input.id ?? `SIM-IN-${randomUUID()}`,
    fromMe: input.fromMe ?? false,
    chatId: groupId ?? from,
    chatName: groupId ? (input.groupName ?? device.groups.get(groupId)?.subject) : input.fromMe ? undefined : input.name,
    isGroup: groupId !== undefined,
    participant: groupId && !input.fromMe ? { number: from, name: input.name } : undefined,
    kind: 'text',
    body: input.body,
    quotedId: input.quotedId,
    timestamp: new Date(),
  };
  const type = input.mediaType;
  if (type === 'location') {
    message.kind = 'location';
    message.location = parseLocation(input.body);
  } else if (type === 'vcard') {
    message.kind = 'vcard';
    message.vcard = parseVcard(input.body);
  } else if (type) {
    if (!input.mediaUrl) throw new AppError('ERR_VALIDATION', 'mediaUrl: Required', { issues: [{ path: 'mediaUrl', message: 'Required' }] });
    message.kind = type;
    message.media = simulatorMedia(type, input.mediaUrl, fetchLocal);
    if (type === 'audio' && input.duration) message.media.seconds = input.duration;
  }
  if (groupId && !device.groups.has(groupId)) {
    device.groups.set(groupId, {
      id: groupId,
      subject: input.groupName ?? groupId,
      announce: false,
      participants: [
        { number: device.number, isAdmin: false },
        { number: from, isAdmin: true },
      ],
    });
  } else if (groupId) {
    const group = device.groups.get(groupId)!;
    // A closed group (only admins send) refuses a post from anyone else, as WhatsApp does (issue 33 item 25).
    const sender = input.fromMe ? device.number : from;
    if (group.announce && !group.participants.some((p) => p.number === sender && p.isAdmin)) {
      throw new AppError('ERR_VALIDATION', 'Only the admins of this group may send messages to it (the group is closed).');
    }
    if (!group.participants.some((p) => p.number === from)) group.participants.push({ number: from, isAdmin: false });
  }
  if (groupId) device.changed();
  return message;
}

export type HistoryData = z.output<typeof SimulatorHistoryMessage>;

/** A seeded history message as the normalized message a device's history sync produces (its media fetched later by `ref`). */
export function historyToInboundMessage(device: SimulatorDevice, input: HistoryData): InboundMessage {
  const isGroup = input.chat.endsWith('@g.us');
  const message: InboundMessage = {
    id: input.id,
    fromMe: input.fromMe,
    chatId: input.chat,
    chatName: isGroup ? (input.name ?? device.groups.get(input.chat)?.subject) : input.fromMe ? undefined : input.name,
    isGroup,
    participant: isGroup && !input.fromMe && input.participant ? { number: input.participant } : undefined,
    kind: 'text',
    body: input.body,
    quotedId: input.quotedId,
    timestamp: input.timestamp,
  };
  const type = input.mediaType;
  if (type === 'location') {
    message.kind = 'location';
    message.location = parseLocation(input.body);
  } else if (type === 'vcard') {
    message.kind = 'vcard';
    message.vcard = parseVcard(input.body);
  } else if (type && input.mediaUrl) {
    message.kind = type;
    message.media = { ...simulatorMedia(type, input.mediaUrl, undefined), ref: input.mediaUrl };
  }
  return message;
}
