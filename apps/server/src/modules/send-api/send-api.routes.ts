import {
  dayOfIsoInstant,
  DEFAULT_GROUP_MESSAGE_INTERVAL,
  DeleteAllContactsInput,
  GetWppIdInput,
  GroupsCreateInput,
  GroupsDescriptionInput,
  GroupsMessageInput,
  GroupsOpenCloseInput,
  GroupsSubjectInput,
  SyncMessageInput,
  SyncMessageUserInput,
  ProtocolInput,
  SendMediaInput,
  SendSchedulesInput,
  SendTextInput,
  SendVoiceInput,
  type ApiConnectionsResponse,
  type GroupActionAcceptedResponse,
  type HistoryImportAcceptedResponse,
  type SendAcceptedResponse,
} from '@wadesk/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RouteDocs } from '../../http/auth-hook.js';
import { AppError } from '../../http/app-error.js';
import { parse } from '../../http/validate.js';
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

const api = (summary: string, docs: Omit<RouteDocs, 'summary'> = {}) => ({ config: { access: 'apiToken' as const, docs: { summary, ...docs } } });

/**
 * The send API (§7 auxiliary calls): thin routes over the services the pages use. Sends answer 202 with the job
 * that sends them (one recipient, durable, sent once: a campaign of one, decision 0014).
 */
export function sendApiRoutes(app: FastifyInstance, services: SendApiServices): void {
  const { campaigns, groups, whatsapps, tickets, contacts, schedules, history } = services;

  const accepted = async (reply: FastifyReply, send: SingleSend) => {
    const result: SendAcceptedResponse = await campaigns.sendOne(send);
    return reply.status(202).send(result);
  };

  app.post('/api/zdg', api('Sends a text (or, on a Cloud API connection, an approved `template`) to a number or group (202: queued as a job)', { body: SendTextInput, status: 202 }), async (request, reply) => {
    const input = parse(SendTextInput, request.body);
    return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'text', message: input.message, template: input.template });
  });

  for (const path of ['/api/sendMedia', '/api/sendMediaZDG']) {
    app.post(path, api('Sends a file by URL with a caption (202: queued as a job)', { body: SendMediaInput, status: 202 }), async (request, reply) => {
      const input = parse(SendMediaInput, request.body);
      return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'mediaUrl', url: input.url, title: input.title });
    });
  }

  app.post('/api/sendMediaZDGRec', api('Sends an .ogg by URL as a voice note (202: queued as a job)', { body: SendVoiceInput, status: 202 }), async (request, reply) => {
    const input = parse(SendVoiceInput, request.body);
    return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'audio', url: input.url });
  });

  // Group actions (issue 13): the same jobs as /ZDGGroups, after the same random 5–15 s delay and field rule.
  const groupAction = async (reply: FastifyReply, request: GroupActionRequest) => {
    const { groupAction: started, jobId } = await groups.start(null, request);
    const result: GroupActionAcceptedResponse = { jobId, groupActionId: started.id };
    return reply.status(202).send(result);
  };

  app.post('/api/zdgGroups', api("Sets every group's title (202: queued as a job)", { body: GroupsSubjectInput, status: 202 }), async (request, reply) => {
    const input = parse(GroupsSubjectInput, request.body);
    return groupAction(reply, { action: 'update', whatsappId: input.ticketwhatsappId, subject: input.subject });
  });

  app.post(
    '/api/zdgGroupsDescription',
    api("Sets every group's description (202: queued as a job)", { body: GroupsDescriptionInput, status: 202 }),
    async (request, reply) => {
      const input = parse(GroupsDescriptionInput, request.body);
      return groupAction(reply, { action: 'update', whatsappId: input.ticketwhatsappId, description: input.description });
    },
  );

  app.post('/api/zdgGroupsCreate', api('Creates a group with a title and participants (202: queued as a job)', { body: GroupsCreateInput, status: 202 }), async (request, reply) => {
    const input = parse(GroupsCreateInput, request.body);
    return groupAction(reply, { action: 'create', whatsappId: input.ticketwhatsappId, title: input.title, participants: input.contact || undefined });
  });

  app.post(
    '/api/zdgGroupsMessage',
    api('A message in every group (newMessageGroup) or to every participant (newMessAgeGroupNasa) (202: queued as a job)', {
      body: GroupsMessageInput,
      status: 202,
    }),
    async (request, reply) => {
      const input = parse(GroupsMessageInput, request.body);
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

  for (const [path, action, summary] of [
    ['/api/zdgOpenGroup', 'open', 'Opens every group: everyone may send (202: queued as a job)'],
    ['/api/zdgCloseGroup', 'close', 'Closes every group: only admins may send (202: queued as a job)'],
  ] as const) {
    app.post(path, api(summary, { body: GroupsOpenCloseInput, status: 202 }), async (request, reply) => {
      const input = parse(GroupsOpenCloseInput, request.body);
      return groupAction(reply, { action, whatsappId: input.ticketwhatsappId, confirmation: action === 'open' ? 'ABRIR' : 'FECHAR' });
    });
  }

  app.get('/api/whatsappzdg', api('Every connection with its status, and the ids of the connected ones'), async (): Promise<ApiConnectionsResponse> => {
    const list = await whatsapps.list();
    return {
      connections: list.map((w) => ({ id: w.id, name: w.name, status: w.status, isDefault: w.isDefault })),
      connectedIds: list.filter((w) => w.status === 'CONNECTED').map((w) => w.id),
    };
  });

  /** The active instance: the default connection (§2 "a button showing the active instance ID"). */
  app.get('/api/whatsappzdg/active', api('The active instance: the default connection'), async () => {
    const active = (await whatsapps.list()).find((w) => w.isDefault);
    if (!active) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'There is no default connection.');
    return { id: active.id, name: active.name, status: active.status };
  });

  // DISPARAR of /ZDGAgendamento (issue 14): every scheduled message of that day (the caller's time zone: X-Time-Zone,
  // else the server's) on that connection, now.
  app.post(
    '/api/sendAgendamento',
    api("Sends now every scheduled message of the day dataEnvio (YYYY-MM-DD, dd/MM/yyyy or an ISO date-time; the caller's time zone from X-Time-Zone, else the server's) on the connection (202: queued as jobs)", {
      body: SendSchedulesInput,
      status: 202,
    }),
    async (request, reply) => {
      const input = parse(SendSchedulesInput, request.body);
      const timeZone = viewerTimeZone(request, serverTimeZone);
      // An instant names the caller's day: its date in the caller's zone.
      const raw = (request.body as { dataEnvio?: unknown } | undefined)?.dataEnvio;
      const day = (typeof raw === 'string' ? dayOfIsoInstant(raw, timeZone) : null) ?? input.dataEnvio;
      return reply.status(202).send(await schedules.sendDay(day, input.ticketwhatsappId, timeZone));
    },
  );

  app.post('/api/zdgGetWppId', api('The connection a ticket uses: { dbWpp: [{ whatsappId }] }', { body: GetWppIdInput }), async (request) => {
    const { ticketid } = parse(GetWppIdInput, request.body);
    const [ticket] = await tickets.loadMany([ticketid]);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found.');
    return { dbWpp: [{ whatsappId: ticket.whatsappId }] };
  });

  // History import (issue 14): the same durable job as /ZDGHistorico.
  const historyImport = async (reply: FastifyReply, input: { whatsappId?: number; limit: number; contactNumber?: string }) => {
    const { historyImport: started, jobId } = await history.start(null, input);
    const result: HistoryImportAcceptedResponse = { jobId, historyImportId: started.id };
    return reply.status(202).send(result);
  };

  app.post('/api/syncMessage', api("Imports the device's history: the newest `limit` messages of every chat (202: queued as a job)", { body: SyncMessageInput, status: 202 }), async (request, reply) => {
    const input = parse(SyncMessageInput, request.body);
    return historyImport(reply, { whatsappId: input.ticketwhatsappId, limit: input.limit });
  });

  app.post(
    '/api/zdgSyncMessageUser',
    api("Imports one contact's history (`user`: the number), the newest `limit` messages (202: queued as a job)", { body: SyncMessageUserInput, status: 202 }),
    async (request, reply) => {
      const input = parse(SyncMessageUserInput, request.body);
      return historyImport(reply, { whatsappId: input.ticketwhatsappId, limit: input.limit, contactNumber: input.user });
    },
  );

  app.post('/api/zdgProtocolo', api('Records a protocol number on a ticket', { body: ProtocolInput }), async (request) => {
    const input = parse(ProtocolInput, request.body);
    const ticket = await tickets.registerProtocol(input.ticket, input.protocolo);
    return { ticket: ticket.id, protocolo: ticket.protocol };
  });

  app.get('/api/contactsZDG', api('Every contact as CSV'), async (_request, reply) => {
    const csv = await contacts.exportCsv();
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="contacts.csv"').send(csv);
  });

  app.post('/api/delContacts', api('Deletes every contact, with their tickets and messages', { body: DeleteAllContactsInput }), async (request) => {
    parse(DeleteAllContactsInput, request.body);
    return { deleted: await contacts.deleteAll() };
  });
}
