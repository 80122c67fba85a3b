import {
  DeleteAllContactsInput,
  GetWppIdInput,
  ProtocolInput,
  SendMediaInput,
  SendTextInput,
  SendVoiceInput,
  type ApiConnectionsResponse,
  type SendAcceptedResponse,
} from '@wadesk/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RouteDocs } from '../../http/auth-hook.js';
import { AppError } from '../../http/app-error.js';
import { parse } from '../../http/validate.js';
import type { CampaignsService, SingleSend } from '../campaigns/campaigns.service.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { WhatsappService } from '../whatsapp/whatsapp.service.js';

export interface SendApiServices {
  campaigns: CampaignsService;
  whatsapps: WhatsappService;
  tickets: TicketsService;
  contacts: ContactsService;
}

const api = (summary: string, docs: Omit<RouteDocs, 'summary'> = {}) => ({ config: { access: 'apiToken' as const, docs: { summary, ...docs } } });

/**
 * The send API (§7 auxiliary calls): thin routes over the services the pages use. Sends answer 202 with the job
 * that sends them (one recipient, durable, sent once: a campaign of one, decision 0014).
 */
export function sendApiRoutes(app: FastifyInstance, services: SendApiServices): void {
  const { campaigns, whatsapps, tickets, contacts } = services;

  const accepted = async (reply: FastifyReply, send: SingleSend) => {
    const result: SendAcceptedResponse = await campaigns.sendOne(send);
    return reply.status(202).send(result);
  };

  app.post('/api/zdg', api('Sends a text to a number or group (202: queued as a job)', { body: SendTextInput, status: 202 }), async (request, reply) => {
    const input = parse(SendTextInput, request.body);
    return accepted(reply, { whatsappId: input.ticketwhatsappId, to: input.number, kind: 'text', message: input.message });
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

  app.post('/api/zdgGetWppId', api('The connection a ticket uses: { dbWpp: [{ whatsappId }] }', { body: GetWppIdInput }), async (request) => {
    const { ticketid } = parse(GetWppIdInput, request.body);
    const [ticket] = await tickets.loadMany([ticketid]);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found.');
    return { dbWpp: [{ whatsappId: ticket.whatsappId }] };
  });

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
