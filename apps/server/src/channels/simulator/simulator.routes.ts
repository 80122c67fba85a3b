import {
  SimulatorAckInput,
  SimulatorCallInput,
  SimulatorCallResponse,
  SimulatorGroupCreatedResponse,
  SimulatorGroupDto,
  SimulatorGroupInput,
  SimulatorHistoryInput,
  SimulatorHistoryResponse,
  SimulatorInboundInput,
  SimulatorInboundResponse,
  SimulatorOutboxItemDto,
  SimulatorOutboxQuery,
  SimulatorParams,
  SimulatorPhoneDto,
  SimulatorScanResponse,
  idField,
} from '@wadesk/contracts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { Ack, GroupInfo } from '../channel-driver.js';
import type { SessionManager } from '../session-manager.js';
import type { OutboxEntry } from './simulator-device.js';
import { historyToInboundMessage, toInboundMessage } from './simulator-inbound.js';
import { chatIdOf } from './simulator.driver.js';
import type { SimulatorNetwork } from './simulator-network.js';

const Params = SimulatorParams;
const FileParams = z.object({ whatsappId: idField, name: z.string().max(100).meta({ description: 'The file name the outbox lists.' }) });
const FileQuery = z.object({ sig: z.string().max(100).default('').meta({ description: 'The signature of the URL the outbox lists: the credential.' }) });
const admin = { access: 'admin' as const };
const tags = ['Simulator'];

function toOutboxDto(e: OutboxEntry): SimulatorOutboxItemDto {
  return { ...e, createdAt: e.createdAt.toISOString() };
}

function toGroupDto(g: GroupInfo): SimulatorGroupDto {
  return { id: g.id, subject: g.subject, description: g.description ?? null, participants: g.participants.map((p) => p.number), announce: g.announce };
}

/** The simulator's HTTP surface (admins only; registered only when SIMULATOR is on). */
export function simulatorRoutes(http: FastifyInstance, network: SimulatorNetwork, sessions: SessionManager): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/simulator/:whatsappId/scan',
    {
      config: admin,
      schema: {
        operationId: 'scanSimulatorQrCode',
        summary: "Scan the connection's QR code with the simulated phone, and wait until the session settles",
        tags,
        params: Params,
        response: { 200: SimulatorScanResponse },
      },
    },
    async (request) => {
      const { whatsappId } = request.params;
      const device = await network.requireDevice(whatsappId);
      if (!(await device.scan())) throw new AppError('ERR_VALIDATION', 'No QR code is waiting to be scanned.');
      await sessions.settled(whatsappId);
      return { status: sessions.status(whatsappId) };
    },
  );

  app.post(
    '/api/simulator/:whatsappId/inbound',
    {
      config: admin,
      schema: {
        operationId: 'sendSimulatorInbound',
        summary: 'A contact (or the phone owner, fromMe) sends a message to the connection; answered once the desk stored it',
        tags,
        params: Params,
        body: SimulatorInboundInput,
        response: { 201: SimulatorInboundResponse, 200: SimulatorInboundResponse.meta({ description: 'A message with this id was stored before.' }) },
      },
    },
    async (request, reply) => {
      const { whatsappId } = request.params;
      const input = request.body;
      const device = network.connectedDevice(whatsappId) ?? (await network.requireDevice(whatsappId));
      if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
      // The database is what "seen" means: an id is a duplicate only once a message with it is stored.
      if (input.id && (await network.isStored(whatsappId, input.id))) return reply.status(200).send({ id: input.id, duplicate: true });
      const message = toInboundMessage(device, input, network.fetchLocal);
      // Answered only once the desk has committed the message: an acknowledged message is never lost.
      const outcome = await device.deliver(message);
      const duplicate = outcome === 'duplicate';
      return reply.status(duplicate ? 200 : 201).send({ id: message.id, duplicate });
    },
  );

  /** A contact calls the connection: `{ rejected }` says whether the desk rejected it (acceptCalls off). */
  app.post(
    '/api/simulator/:whatsappId/call',
    {
      config: admin,
      schema: {
        operationId: 'callSimulatorConnection',
        summary: 'A contact calls the connection (voice or video): whether the desk rejected the call',
        tags,
        params: Params,
        body: SimulatorCallInput,
        response: { 200: SimulatorCallResponse },
      },
    },
    async (request) => {
      const { whatsappId } = request.params;
      const input = request.body;
      const device = await network.requireDevice(whatsappId);
      if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
      const rejected = await device.call({ id: `CALL${randomBytes(8).toString('hex').toUpperCase()}`, from: chatIdOf(input.from), video: input.video, name: input.name });
      return { rejected };
    },
  );

  app.get(
    '/api/simulator/:whatsappId/outbox',
    {
      config: admin,
      schema: {
        operationId: 'listSimulatorOutbox',
        summary: 'What the simulated phone received from the desk, to one chat or all',
        tags,
        params: Params,
        querystring: SimulatorOutboxQuery,
        response: { 200: z.array(SimulatorOutboxItemDto) },
      },
    },
    async (request) => {
      const device = await network.requireDevice(request.params.whatsappId);
      return device.listOutbox(request.query.to).map(toOutboxDto);
    },
  );

  /** A file the device sent, for the /simulator page: the signature in the URL the outbox lists is the credential. */
  app.get(
    '/api/simulator/:whatsappId/files/:name',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getSimulatorFile',
        summary: 'A file the desk sent to the simulated phone, by the signed URL its outbox lists',
        tags,
        params: FileParams,
        querystring: FileQuery,
        response: { 200: z.any().meta({ type: 'string', format: 'binary', description: 'The file, in its own content type.' }) },
      },
    },
    async (request, reply) => {
      const { whatsappId, name } = request.params;
      const files = network.files;
      if (!files?.verify(whatsappId, name, request.query.sig)) throw new AppError('ERR_NO_PERMISSION');
      const opened = await files.open(whatsappId, name);
      if (!opened) throw new AppError('ERR_NOT_FOUND');
      return reply
        .header('content-type', opened.mimetype)
        .header('content-length', opened.size)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(opened.stream);
    },
  );

  app.post(
    '/api/simulator/:whatsappId/ack',
    {
      config: admin,
      schema: {
        operationId: 'setSimulatorAck',
        summary: "Move a sent message's delivery state (delivered, read, played) as the phone would",
        tags,
        params: Params,
        body: SimulatorAckInput,
        response: { 200: SimulatorOutboxItemDto },
      },
    },
    async (request) => {
      const { id, ack } = request.body;
      const device = await network.requireDevice(request.params.whatsappId);
      const entry = device.setAck(id, ack as Ack);
      if (!entry) throw new AppError('ERR_NOT_FOUND', 'No sent message with this id.');
      return toOutboxDto(entry);
    },
  );

  /** Makes a group on the simulated phone (its creator and admin), as if made on the phone itself. */
  app.post(
    '/api/simulator/:whatsappId/groups',
    {
      config: admin,
      schema: {
        operationId: 'createSimulatorGroup',
        summary: 'Make a group on the simulated phone (its creator and admin), as if made on the phone',
        tags,
        params: Params,
        body: SimulatorGroupInput,
        response: { 201: SimulatorGroupCreatedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const device = await network.requireDevice(request.params.whatsappId);
      const group = device.createGroup(input.subject, input.participants, input.description);
      return reply.status(201).send({ id: group.id });
    },
  );

  /** The groups of the simulated phone, as they are now (group actions change them). */
  app.get(
    '/api/simulator/:whatsappId/groups',
    {
      config: admin,
      schema: {
        operationId: 'listSimulatorGroups',
        summary: 'The groups of the simulated phone, as they are now',
        tags,
        params: Params,
        response: { 200: z.array(SimulatorGroupDto) },
      },
    },
    async (request) => {
      const device = await network.requireDevice(request.params.whatsappId);
      return [...device.groups.values()].map(toGroupDto);
    },
  );

  /**
   * Seeds the simulated phone's history, as a phone sends it on pairing (Baileys' messaging-history.set): the desk
   * keeps it per connection for the history import (issue 14). Answered once it is kept; an id seen before is kept once.
   */
  app.post(
    '/api/simulator/:whatsappId/history',
    {
      config: admin,
      schema: {
        operationId: 'seedSimulatorHistory',
        summary: "Seed the simulated phone's history, as a phone sends it on pairing (for the history import)",
        tags,
        params: Params,
        body: SimulatorHistoryInput,
        response: { 201: SimulatorHistoryResponse },
      },
    },
    async (request, reply) => {
      const { messages } = request.body;
      const device = await network.requireDevice(request.params.whatsappId);
      if (!device.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The simulator device is not connected.');
      await device.seedHistory(messages.map((m) => historyToInboundMessage(device, m)));
      return reply.status(201).send({ received: messages.length });
    },
  );

  /** The chats and groups the simulated phone knows (for the /simulator page). */
  app.get(
    '/api/simulator/:whatsappId/contacts',
    {
      config: admin,
      schema: {
        operationId: 'getSimulatorPhone',
        summary: 'The simulated phone: its state, QR code, number, the chats it knows and its groups',
        tags,
        params: Params,
        response: { 200: SimulatorPhoneDto },
      },
    },
    async (request) => {
      const { whatsappId } = request.params;
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
    },
  );
}
