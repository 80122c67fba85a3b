import {
  ApiActiveConnectionResponse,
  ApiConnectionsResponse,
  dayOfIsoInstant,
  DEFAULT_GROUP_MESSAGE_INTERVAL,
  DeleteAllContactsInput,
  DeleteAllContactsResponse,
  GetWppIdInput,
  GetWppIdResponse,
  GroupActionAcceptedResponse,
  GroupsCreateInput,
  GroupsDescriptionInput,
  GroupsMessageInput,
  GroupsOpenCloseInput,
  GroupsSubjectInput,
  HistoryImportAcceptedResponse,
  ProtocolInput,
  ProtocolResponse,
  SendAcceptedResponse,
  SendMediaInput,
  SendSchedulesInput,
  SendSchedulesResponse,
  SendTextInput,
  SendVoiceInput,
  SyncMessageInput,
  SyncMessageUserInput,
} from '@wadesk/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { viewerTimeZone } from '../../http/viewer-time-zone.js';
import type { CampaignsService, SingleSend } from '../campaigns/campaigns.service.js';
import { groupFieldsError, type GroupActionRequest, type GroupsService } from '../groups/groups.service.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { SchedulesService } from '../schedules/schedules.service.js';
import type { HistoryService } from '../history/history.service.js';
import { serverTimeZone } from '../tickets/tickets.service.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { WhatsappService } from '../whatsapp/whatsapp.service.js';

export interface SendApiServices {
  campaigns: CampaignsService;
  groups: GroupsService;
  whatsapps: WhatsappService;
  tickets: TicketsService;
  contacts: ContactsService;
  schedules: SchedulesService;
  history: HistoryService;
}

const tags = ['Send API'];
/** Every call takes the API token (body `token` or bearer) or a signed-in admin: send-api/api-token-guard.ts. */
const config = { access: 'apiToken' as const };

/**
 * The send API (§7 auxiliary calls): thin routes over the services the pages use. Sends answer 202 with the job
 * that sends them (one recipient, durable, sent once: a campaign of one, decision 0014).
 */
export function sendApiRoutes(http: FastifyInstance, services: SendApiServices): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  const { campaigns, groups, whatsapps, tickets, contacts, schedules, history } = services;

  const accepted = async (reply: FastifyReply, send: SingleSend) => {
    const result: SendAcceptedResponse = await campaigns.sendOne(send);
    return reply.status(202).send(result);
  };

  app.post(
    '/api/zdg',
    {
      config,
      schema: {
        operationId: 'sendTextWithApi',
        summary: 'Send a text (or, on a Cloud API connection, an approved template) to a number or group',
        description: '202: queued as a job (GET /api/jobs/{id}).',
        tags,
        body: SendTextInput,
        response: { 202: SendAcceptedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'text', message: input.message, template: input.template });
    },
  );

  for (const [path, operationId] of [
    ['/api/sendMedia', 'sendMediaWithApi'],
    ['/api/sendMediaZDG', 'sendMediaZdgWithApi'],
  ] as const) {
    app.post(
      path,
      {
        config,
        schema: {
          operationId,
          summary: 'Send a file by URL with a caption',
          description: '202: queued as a job (GET /api/jobs/{id}). /api/sendMedia and /api/sendMediaZDG are the same call.',
          tags,
          body: SendMediaInput,
          response: { 202: SendAcceptedResponse },
        },
      },
      async (request, reply) => {
        const input = request.body;
        return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'mediaUrl', url: input.url, title: input.title });
      },
    );
  }

  app.post(
    '/api/sendMediaZDGRec',
    {
      config,
      schema: {
        operationId: 'sendVoiceWithApi',
        summary: 'Send an .ogg file by URL as a voice note',
        description: '202: queued as a job (GET /api/jobs/{id}).',
        tags,
        body: SendVoiceInput,
        response: { 202: SendAcceptedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'audio', url: input.url });
    },
  );

  // Group actions (issue 13): the same jobs as /ZDGGroups, after the same random 5–15 s delay and field rule.
  const groupAction = async (reply: FastifyReply, request: GroupActionRequest) => {
    const { groupAction: started, jobId } = await groups.start(null, request);
    const result: GroupActionAcceptedResponse = { jobId, groupActionId: started.id };
    return reply.status(202).send(result);
  };
  const groupSchema = <B extends z.ZodType>(operationId: string, summary: string, body: B) => ({
    config,
    schema: {
      operationId,
      summary,
      description: '202: queued as a job after a random 5–15 s delay (GET /api/jobs/{id}).',
      tags,
      body,
      response: { 202: GroupActionAcceptedResponse },
    },
  });

  app.post('/api/zdgGroups', groupSchema('setGroupsTitleWithApi', "Set every group's title", GroupsSubjectInput), async (request, reply) => {
    const input = request.body;
    return groupAction(reply, { action: 'update', whatsappId: input.ticketwhatsappId, subject: input.subject });
  });

  app.post(
    '/api/zdgGroupsDescription',
    groupSchema('setGroupsDescriptionWithApi', "Set every group's description", GroupsDescriptionInput),
    async (request, reply) => {
      const input = request.body;
      return groupAction(reply, { action: 'update', whatsappId: input.ticketwhatsappId, description: input.description });
    },
  );

  app.post('/api/zdgGroupsCreate', groupSchema('createGroupWithApi', 'Create a group with a title and participants', GroupsCreateInput), async (request, reply) => {
    const input = request.body;
    return groupAction(reply, { action: 'create', whatsappId: input.ticketwhatsappId, title: input.title, participants: input.contact || undefined });
  });

  app.post(
    '/api/zdgGroupsMessage',
    groupSchema(
      'messageGroupsWithApi',
      'Send a message in every group (newMessageGroup) or to every participant (newMessAgeGroupNasa)',
      GroupsMessageInput,
    ),
    async (request, reply) => {
      const input = request.body;
      const whatsappId = input.ticketwhatsappId;
      // Exactly one of the two messages (the field rule, §5).
      if (Boolean(input.newMessageGroup) === Boolean(input.newMessAgeGroupNasa)) throw groupFieldsError(['message']);
      if (input.newMessageGroup) {
        // Intervals fit only private messages: given here, the field rule refuses them.
        const { minInterval, maxInterval } = input;
        return groupAction(reply, { action: 'message', whatsappId, message: input.newMessageGroup, minInterval, maxInterval });
      }
      const min = input.minInterval ?? Math.min(DEFAULT_GROUP_MESSAGE_INTERVAL.min, input.maxInterval ?? Infinity);
      const max = input.maxInterval ?? Math.max(DEFAULT_GROUP_MESSAGE_INTERVAL.max, min);
      return groupAction(reply, { action: 'privateMessage', whatsappId, message: input.newMessAgeGroupNasa, minInterval: min, maxInterval: max });
    },
  );

  for (const [path, action, operationId, summary] of [
    ['/api/zdgOpenGroup', 'open', 'openGroupsWithApi', 'Open every group: everyone may send'],
    ['/api/zdgCloseGroup', 'close', 'closeGroupsWithApi', 'Close every group: only admins may send'],
  ] as const) {
    app.post(path, groupSchema(operationId, summary, GroupsOpenCloseInput), async (request, reply) => {
      return groupAction(reply, { action, whatsappId: request.body.ticketwhatsappId, confirmation: action === 'open' ? 'ABRIR' : 'FECHAR' });
    });
  }

  app.get(
    '/api/whatsappzdg',
    {
      config,
      schema: {
        operationId: 'listConnectionsWithApi',
        summary: 'Every connection with its status, and the ids of the connected ones',
        tags,
        response: { 200: ApiConnectionsResponse },
      },
    },
    async () => {
      const list = await whatsapps.list();
      return {
        connections: list.map((w) => ({ id: w.id, name: w.name, status: w.status, isDefault: w.isDefault })),
        connectedIds: list.filter((w) => w.status === 'CONNECTED').map((w) => w.id),
      };
    },
  );

  /** The active instance: the default connection (§2 "a button showing the active instance ID"). */
  app.get(
    '/api/whatsappzdg/active',
    {
      config,
      schema: {
        operationId: 'getActiveConnectionWithApi',
        summary: 'The active instance: the default connection',
        tags,
        response: { 200: ApiActiveConnectionResponse },
      },
    },
    async () => {
      const active = (await whatsapps.list()).find((w) => w.isDefault);
      if (!active) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'There is no default connection.');
      return { id: active.id, name: active.name, status: active.status };
    },
  );

  // DISPARAR of /ZDGAgendamento (issue 14): every scheduled message of that day (the caller's time zone: X-Time-Zone,
  // else the server's) on that connection, now.
  app.post(
    '/api/sendAgendamento',
    {
      config,
      schema: {
        operationId: 'sendScheduledDayWithApi',
        summary: 'Send now every scheduled message of a day on a connection',
        description:
          "dataEnvio: YYYY-MM-DD, dd/MM/yyyy or an ISO date-time (its day in the caller's time zone: X-Time-Zone, else the server's). " +
          '202: queued as jobs.',
        tags,
        body: SendSchedulesInput,
        response: { 202: SendSchedulesResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const timeZone = viewerTimeZone(request, serverTimeZone);
      // An instant names the caller's day: its date in the caller's zone.
      const day = dayOfIsoInstant(input.dataEnvio.text, timeZone) ?? input.dataEnvio.day;
      return reply.status(202).send(await schedules.sendDay(day, input.ticketwhatsappId, timeZone));
    },
  );

  app.post(
    '/api/zdgGetWppId',
    {
      config,
      schema: { operationId: 'getTicketConnectionWithApi', summary: 'The connection a ticket uses', tags, body: GetWppIdInput, response: { 200: GetWppIdResponse } },
    },
    async (request) => {
      const [ticket] = await tickets.loadMany([request.body.ticketid]);
      if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found.');
      return { dbWpp: [{ whatsappId: ticket.whatsappId }] };
    },
  );

  // History import (issue 14): the same durable job as /ZDGHistorico.
  const historyImport = async (reply: FastifyReply, input: { whatsappId?: number; limit: number; contactNumber?: string }) => {
    const { historyImport: started, jobId } = await history.start(null, input);
    const result: HistoryImportAcceptedResponse = { jobId, historyImportId: started.id };
    return reply.status(202).send(result);
  };

  app.post(
    '/api/syncMessage',
    {
      config,
      schema: {
        operationId: 'importHistoryWithApi',
        summary: "Import the device's history: the newest `limit` messages of every chat",
        description: '202: queued as a job (GET /api/jobs/{id}).',
        tags,
        body: SyncMessageInput,
        response: { 202: HistoryImportAcceptedResponse },
      },
    },
    async (request, reply) => historyImport(reply, { whatsappId: request.body.ticketwhatsappId, limit: request.body.limit }),
  );

  app.post(
    '/api/zdgSyncMessageUser',
    {
      config,
      schema: {
        operationId: 'importContactHistoryWithApi',
        summary: "Import one contact's history (`user`: the number), the newest `limit` messages",
        description: '202: queued as a job (GET /api/jobs/{id}).',
        tags,
        body: SyncMessageUserInput,
        response: { 202: HistoryImportAcceptedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      return historyImport(reply, { whatsappId: input.ticketwhatsappId, limit: input.limit, contactNumber: input.user });
    },
  );

  app.post(
    '/api/zdgProtocolo',
    {
      config,
      schema: { operationId: 'recordProtocolWithApi', summary: 'Record a protocol number on a ticket', tags, body: ProtocolInput, response: { 200: ProtocolResponse } },
    },
    async (request) => {
      const ticket = await tickets.registerProtocol(request.body.ticket, request.body.protocolo);
      return { ticket: ticket.id, protocolo: ticket.protocol };
    },
  );

  app.get(
    '/api/contactsZDG',
    {
      config,
      schema: {
        operationId: 'exportContactsWithApi',
        summary: 'Every contact as CSV',
        tags,
        produces: ['text/csv'],
        response: { 200: z.string().meta({ description: 'The contacts as CSV (text/csv, an attachment named contacts.csv).' }) },
      },
    },
    async (_request, reply) => {
      const csv = await contacts.exportCsv();
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="contacts.csv"').send(csv);
    },
  );

  app.post(
    '/api/delContacts',
    {
      config,
      schema: {
        operationId: 'deleteAllContactsWithApi',
        summary: 'Delete every contact, with their tickets and messages',
        tags,
        body: DeleteAllContactsInput,
        response: { 200: DeleteAllContactsResponse },
      },
    },
    async () => ({ deleted: await contacts.deleteAll() }),
  );
}
