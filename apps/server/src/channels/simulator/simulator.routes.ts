import { SimulatorAckInput, SimulatorInboundInput, SimulatorOutboxQuery, idField, type SimulatorOutboxItemDto } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { parse } from '../../http/validate.js';
import type { Ack } from '../channel-driver.js';
import type { SessionManager } from '../session-manager.js';
import type { OutboxEntry } from './simulator-device.js';
import { toInboundMessage } from './simulator-inbound.js';
import type { SimulatorNetwork } from './simulator-network.js';

const Params = z.object({ whatsappId: idField });
const admin = { config: { access: 'admin' as const } };

function toOutboxDto(e: OutboxEntry): SimulatorOutboxItemDto {
  return { ...e, createdAt: e.createdAt.toISOString() };
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
    const device = await network.requireDevice(whatsappId);
    if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
    if (input.id && device.hasSeen(input.id)) return reply.status(200).send({ id: input.id, duplicate: true });
    const message = toInboundMessage(device, input, network.fetchLocal);
    const delivered = device.deliver(message);
    return reply.status(delivered ? 201 : 200).send({ id: message.id, duplicate: !delivered });
  });

  app.get('/api/simulator/:whatsappId/outbox', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const { to } = parse(SimulatorOutboxQuery, request.query);
    const device = await network.requireDevice(whatsappId);
    return device.listOutbox(to).map(toOutboxDto);
  });

  app.post('/api/simulator/:whatsappId/ack', admin, async (request) => {
    const { whatsappId } = parse(Params, request.params);
    const { id, ack } = parse(SimulatorAckInput, request.body);
    const device = await network.requireDevice(whatsappId);
    const entry = device.setAck(id, ack as Ack);
    if (!entry) throw new AppError('ERR_NOT_FOUND', 'No sent message with this id.');
    return toOutboxDto(entry);
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
