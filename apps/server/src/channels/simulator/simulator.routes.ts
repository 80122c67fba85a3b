import {
  SimulatorAckInput,
  SimulatorCallInput,
  SimulatorGroupInput,
  SimulatorHistoryInput,
  SimulatorInboundInput,
  SimulatorOutboxQuery,
  idField,
  type SimulatorGroupDto,
  type SimulatorOutboxItemDto,
} from '@wadesk/contracts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { parse } from '../../http/validate.js';
import type { Ack, GroupInfo } from '../channel-driver.js';
import type { SessionManager } from '../session-manager.js';
import type { OutboxEntry } from './simulator-device.js';
import { historyToInboundMessage, toInboundMessage } from './simulator-inbound.js';
import { chatIdOf } from './simulator.driver.js';
import type { SimulatorNetwork } from './simulator-network.js';

const Params = z.object({ whatsappId: idField });
const FileParams = z.object({ whatsappId: idField, name: z.string().max(100) });
const FileQuery = z.object({ sig: z.string().max(100).default('') });
const admin = { config: { access: 'admin' as const } };

function toOutboxDto(e: OutboxEntry): SimulatorOutboxItemDto {
  return { ...e, createdAt: e.createdAt.toISOString() };
}

function toGroupDto(g: GroupInfo): SimulatorGroupDto {
  return { id: g.id, subject: g.subject, description: g.description ?? null, participants: g.participants.map((p) => p.number), announce: g.announce };
}

/** The simulator's HTTP surface (admins only; registered only when SIMULATOR is on). */
export function simulatorRoutes(app: FastifyInstance, network: SimulatorNetwork, sessions: SessionManager): void {
  app.post('/api/simulator/:whatsappId/scan', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const device = await network.requireDevice(whatsappId);
    if (!(await device.scan())) throw new AppError('ERR_VALIDATION', 'No QR code is waiting to be scanned.');
    await sessions.settled(whatsappId);
    return { status: sessions.status(whatsappId) };
  });

  app.post('/api/simulator/:whatsappId/inbound', admin, async (request, reply) => {
    const { whatsappId } = parse(Params, request.params);
    const input = parse(SimulatorInboundInput, request.body);
    const device = network.connectedDevice(whatsappId) ?? (await network.requireDevice(whatsappId));
    if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    // The database is what "seen" means: an id is a duplicate only once a message with it is stored.
    if (input.id && (await network.isStored(whatsappId, input.id))) return reply.status(200).send({ id: input.id, duplicate: true });
    const message = toInboundMessage(device, input, network.fetchLocal);
    // Answered only once the desk has committed the message: an acknowledged message is never lost.
    const outcome = await device.deliver(message);
    const duplicate = outcome === 'duplicate';
    return reply.status(duplicate ? 200 : 201).send({ id: message.id, duplicate });
  });

  /** A contact calls the connection: `{ rejected }` says whether the desk rejected it (acceptCalls off). */
  app.post('/api/simulator/:whatsappId/call', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const input = parse(SimulatorCallInput, request.body);
    const device = await network.requireDevice(whatsappId);
    if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    const rejected = await device.call({ id: `CALL${randomBytes(8).toString('hex').toUpperCase()}`, from: chatIdOf(input.from), video: input.video, name: input.name });
    return { rejected };
  });

  app.get('/api/simulator/:whatsappId/outbox', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const { to } = parse(SimulatorOutboxQuery, request.query);
    const device = await network.requireDevice(whatsappId);
    return device.listOutbox(to).map(toOutboxDto);
  });

  /** A file the device sent, for the /simulator page: the signature in the URL the outbox lists is the credential. */
  app.get('/api/simulator/:whatsappId/files/:name', { config: { access: 'public' as const } }, async (request, reply) => {
    const { whatsappId, name } = parse(FileParams, request.params);
    const { sig } = parse(FileQuery, request.query);
    const files = network.files;
    if (!files?.verify(whatsappId, name, sig)) throw new AppError('ERR_NO_PERMISSION');
    const opened = await files.open(whatsappId, name);
    if (!opened) throw new AppError('ERR_NOT_FOUND');
    return reply
      .header('content-type', opened.mimetype)
      .header('content-length', opened.size)
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(opened.stream);
  });

  app.post('/api/simulator/:whatsappId/ack', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const { id, ack } = parse(SimulatorAckInput, request.body);
    const device = await network.requireDevice(whatsappId);
    const entry = device.setAck(id, ack as Ack);
    if (!entry) throw new AppError('ERR_NOT_FOUND', 'No sent message with this id.');
    return toOutboxDto(entry);
  });

  /** Makes a group on the simulated phone (its creator and admin), as if made on the phone itself. */
  app.post('/api/simulator/:whatsappId/groups', admin, async (request, reply) => {
    const { whatsappId } = parse(Params, request.params);
    const input = parse(SimulatorGroupInput, request.body);
    const device = await network.requireDevice(whatsappId);
    const group = device.createGroup(input.subject, input.participants, input.description);
    return reply.status(201).send({ id: group.id });
  });

  /** The groups of the simulated phone, as they are now (group actions change them). */
  app.get('/api/simulator/:whatsappId/groups', admin, async (request): Promise<SimulatorGroupDto[]> => {
    const { whatsappId } = parse(Params, request.params);
    const device = await network.requireDevice(whatsappId);
    return [...device.groups.values()].map(toGroupDto);
  });

  /**
   * Seeds the simulated phone's history, as a phone sends it on pairing (Baileys' messaging-history.set): the desk
   * keeps it per connection for the history import (issue 14). Answered once it is kept; an id seen before is kept once.
   */
  app.post('/api/simulator/:whatsappId/history', admin, async (request, reply) => {
    const { whatsappId } = parse(Params, request.params);
    const { messages } = parse(SimulatorHistoryInput, request.body);
    const device = await network.requireDevice(whatsappId);
    if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    await device.seedHistory(messages.map((m) => historyToInboundMessage(device, m)));
    return reply.status(201).send({ received: messages.length });
  });

  /** The chats and groups the simulated phone knows (for the /simulator page). */
  app.get('/api/simulator/:whatsappId/contacts', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const device = await network.requireDevice(whatsappId);
    const chats = new Map<string, { number: string; name: string | null; lastAt: string }>();
    for (const m of device.history) {
      if (m.isGroup) continue;
      const name = m.fromMe ? (chats.get(m.chatId)?.name ?? null) : (m.chatName ?? chats.get(m.chatId)?.name ?? null);
      chats.set(m.chatId, { number: m.chatId, name, lastAt: m.timestamp.toISOString() });
    }
    return {
      status: sessions.status(whatsappId),
      qrcode: device.link?.pendingQr ?? '',
      number: device.number,
      contacts: [...chats.values()].reverse(),
      groups: [...device.groups.values()],
    };
  });
}
