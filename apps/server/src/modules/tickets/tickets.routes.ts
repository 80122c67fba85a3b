import { CloseAllTicketsInput, dayField, dayOfIsoInstant, idField, pageNumberField, searchParamField, TICKET_STATUSES, type CloseAllTicketsResponse } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import { viewerTimeZone } from '../../http/viewer-time-zone.js';
import { serverTimeZone, type TicketsService } from './tickets.service.js';

const booleanString = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === '1')
  .default(false);

const optionalBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

/** `queueIds` is a JSON list in the query string (§7), e.g. `[1,2]`. */
export const queueIdsParam = z
  .string()
  .max(2000)
  .transform((raw, ctx) => {
    try {
      const parsed: unknown = JSON.parse(raw);
      const list = z.array(idField).max(500).parse(parsed);
      return list;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON list of ids' });
      return z.NEVER;
    }
  })
  .optional();

export const TicketListQuery = z.object({
  searchParam: searchParamField,
  pageNumber: pageNumberField,
  status: z.enum(TICKET_STATUSES).optional(),
  /** `YYYY-MM-DD`, or an ISO date-time as whaticket's client sends it (its day: `dayOfInstant`). */
  date: dayField().optional(),
  showAll: booleanString,
  queueIds: queueIdsParam,
  withUnreadMessages: booleanString,
  isGroup: optionalBoolean,
});

const TicketCreateBody = z.object({
  contactId: idField,
  userId: idField.nullable().optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  whatsappId: idField.optional(),
});

const TicketUpdateBody = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: idField.nullable().optional(),
  queueId: idField.nullable().optional(),
  whatsappId: idField.optional(),
});

const IdParams = z.object({ id: idField });

export function ticketsRoutes(app: FastifyInstance, tickets: TicketsService): void {
  app.get('/api/tickets', async (request, reply) => {
    const query = parse(TicketListQuery, request.query);
    const timeZone = viewerTimeZone(request, serverTimeZone);
    // `date` as an instant (whaticket's client) names the caller's day: the instant's date in the caller's zone.
    const raw = (request.query as { date?: unknown }).date;
    const date = typeof raw === 'string' ? (dayOfIsoInstant(raw, timeZone) ?? query.date) : query.date;
    return reply.type('application/json; charset=utf-8').send(await tickets.listJson(currentUser(request), { ...query, date, timeZone }));
  });

  app.get('/api/tickets/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return tickets.get(currentUser(request), id);
  });

  app.post('/api/tickets', async (request, reply) => {
    const ticket = await tickets.create(currentUser(request), parse(TicketCreateBody, request.body));
    return reply.status(201).send(ticket);
  });

  app.put('/api/tickets/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return tickets.update(currentUser(request), id, parse(TicketUpdateBody, request.body));
  });

  /** Protocolo: resolve, sending the contact a protocol number. */
  app.post('/api/tickets/:id/protocol', async (request) => {
    const { id } = parse(IdParams, request.params);
    return tickets.resolveWithProtocol(currentUser(request), id);
  });

  app.delete('/api/tickets/:id', { config: { access: 'admin' } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    await tickets.delete(currentUser(request), id);
    return { message: 'Ticket deleted' };
  });

  // Close all (§7): what the caller's Inbox or Group tab shows, by the view given in the body (none: see the schema).
  app.post('/api/ticketsClosed', async (request): Promise<CloseAllTicketsResponse> => {
    const closed = await tickets.closeAll(currentUser(request), parse(CloseAllTicketsInput, request.body));
    return { closed };
  });
}
