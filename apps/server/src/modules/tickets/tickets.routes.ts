import {
  CloseAllTicketsInput,
  CloseAllTicketsResponse,
  dayAsWrittenField,
  dayOfIsoInstant,
  IdParams,
  idField,
  labelIdsField,
  MessageAnswer,
  pageNumberField,
  searchParamField,
  TICKET_STATUSES,
  TicketDto,
  TicketListResponse,
  TicketProtocolResponse,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { timeZoneQueryParam, viewerTimeZone } from '../../http/viewer-time-zone.js';
import { serverTimeZone, type TicketsService } from './tickets.service.js';

const booleanString = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === '1')
  .default(false);

const optionalBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

/**
 * A list of ids in the query string: a JSON list (`labelIds=[1,2]`, the spec's form), or the parameter repeated
 * (`labelIds=1&labelIds=2`, what most HTTP clients write for a list), each value an id or a JSON list; both may mix.
 * Anything else (`red`, `1,2`, an empty value) is 400 ERR_VALIDATION.
 */
const idListParam = () =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(500)])
    .transform((raw, ctx) => {
      try {
        const ids = (Array.isArray(raw) ? raw : [raw]).flatMap((value): unknown[] => {
          const parsed: unknown = JSON.parse(value);
          return Array.isArray(parsed) ? parsed : [parsed];
        });
        return z.array(idField).max(500).parse(ids);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list of ids, or the parameter repeated once per id' });
        return z.NEVER;
      }
    })
    .optional();

/** `queueIds` is a JSON list in the query string (§7), e.g. `[1,2]`, or the parameter repeated. */
export const queueIdsParam = idListParam();

export const TicketListQuery = z.object({
  searchParam: searchParamField,
  pageNumber: pageNumberField,
  status: z.enum(TICKET_STATUSES).optional(),
  date: dayAsWrittenField()
    .optional()
    .meta({ description: "A day, `YYYY-MM-DD`, or an ISO date-time (whaticket's client): the day it falls on in the caller's time zone." }),
  showAll: booleanString,
  queueIds: queueIdsParam.meta({ description: 'Queue ids, a JSON list (`[1,2]`) or the parameter repeated (`queueIds=1&queueIds=2`).' }),
  labelIds: idListParam().meta({ description: 'Label ids, a JSON list (`[1,2]`) or the parameter repeated (`labelIds=1&labelIds=2`): tickets carrying any of them.' }),
  withUnreadMessages: booleanString,
  isGroup: optionalBoolean,
  timeZone: timeZoneQueryParam,
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
  labelIds: labelIdsField.optional().meta({ description: "The ticket's labels become these (an empty list removes them all)." }),
});

const tags = ['Tickets'];

export function ticketsRoutes(http: FastifyInstance, tickets: TicketsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/tickets',
    {
      schema: {
        operationId: 'listTickets',
        summary: 'List the tickets the caller may see, 40 a page, newest change first, by status, queue, day or search',
        tags,
        querystring: TicketListQuery,
        response: { 200: TicketListResponse },
      },
    },
    async (request, reply) => {
      const { date: dateGiven, timeZone: _timeZone, ...query } = request.query;
      const timeZone = viewerTimeZone(request, serverTimeZone);
      // `date` as an instant (whaticket's client) names the caller's day: the instant's date in the caller's zone.
      const date = dateGiven === undefined ? undefined : (dayOfIsoInstant(dateGiven.text, timeZone) ?? dateGiven.day);
      const page = await tickets.listJson(currentUser(request), { ...query, date, timeZone });
      // The page as PostgreSQL wrote it (JSON text, issue 11): a string is sent as it is, never serialized again.
      return reply.type('application/json; charset=utf-8').send(page as unknown as TicketListResponse);
    },
  );

  app.get(
    '/api/tickets/:id',
    { schema: { operationId: 'getTicket', summary: 'One ticket the caller may see', tags, params: IdParams, response: { 200: TicketDto } } },
    async (request) => tickets.get(currentUser(request), request.params.id),
  );

  app.post(
    '/api/tickets',
    {
      schema: {
        operationId: 'createTicket',
        summary: "Open a ticket with a contact on the caller's (or the default) connection",
        tags,
        body: TicketCreateBody,
        response: { 201: TicketDto },
      },
    },
    async (request, reply) => reply.status(201).send(await tickets.create(currentUser(request), request.body)),
  );

  app.put(
    '/api/tickets/:id',
    {
      schema: {
        operationId: 'updateTicket',
        summary: 'Accept, transfer, resolve or reopen a ticket, or set its labels: the fields given change',
        tags,
        params: IdParams,
        body: TicketUpdateBody,
        response: { 200: TicketDto },
      },
    },
    async (request) => tickets.update(currentUser(request), request.params.id, request.body),
  );

  /** Protocolo: resolve, sending the contact a protocol number. */
  app.post(
    '/api/tickets/:id/protocol',
    {
      schema: {
        operationId: 'resolveTicketWithProtocol',
        summary: 'Resolve a ticket, sending the contact a protocol number (setting protocolMessage)',
        tags,
        params: IdParams,
        response: { 200: TicketProtocolResponse },
      },
    },
    async (request) => tickets.resolveWithProtocol(currentUser(request), request.params.id),
  );

  app.delete(
    '/api/tickets/:id',
    {
      config: { access: 'admin' },
      schema: { operationId: 'deleteTicket', summary: 'Delete a ticket and its messages', tags, params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      await tickets.delete(currentUser(request), request.params.id);
      return { message: 'Ticket deleted' };
    },
  );

  // Close all (§7): what the caller's Inbox or Group tab shows, by the view given in the body (none: see the schema).
  app.post(
    '/api/ticketsClosed',
    {
      schema: {
        operationId: 'closeAllTickets',
        summary: "Close every ticket of the caller's Inbox or Group view (open and pending), by the view's filters",
        tags,
        body: CloseAllTicketsInput,
        response: { 200: CloseAllTicketsResponse },
      },
    },
    async (request) => ({ closed: await tickets.closeAll(currentUser(request), request.body) }),
  );
}
