import { IdParams, ScheduleDto, ScheduleInput, ScheduleListQuery, ScheduleListResponse, ScheduleUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth-hook.js';
import { viewerTimeZone } from '../../http/viewer-time-zone.js';
import { serverTimeZone } from '../tickets/tickets.service.js';
import type { SchedulesService } from './schedules.service.js';

const tags = ['Scheduled messages'];
const config = { access: 'user' as const, tool: 'schedules' as const };

/**
 * Scheduled messages (/ZDGAgendamento, the chat's clock button; issue 14): any signed-in user schedules for any
 * contact (contacts are open to every user); an attendant sees and changes only their own schedules (another's
 * answers 404), an admin every one. Attendants while attendantTools lists `schedules` (issue 32).
 */
export function schedulesRoutes(http: FastifyInstance, schedules: SchedulesService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/schedules',
    {
      config,
      schema: {
        operationId: 'createSchedule',
        summary: 'Schedule a message to a contact or a number at sendAt',
        tags,
        body: ScheduleInput,
        response: { 201: ScheduleDto },
      },
    },
    async (request, reply) => reply.status(201).send(await schedules.create(currentUser(request), request.body)),
  );

  app.get(
    '/api/schedules',
    {
      config,
      schema: {
        operationId: 'listSchedules',
        summary: 'Scheduled messages, 20 a page',
        description: "`date`: a day of the viewer's time zone (X-Time-Zone, else the server's).",
        tags,
        querystring: ScheduleListQuery,
        response: { 200: ScheduleListResponse },
      },
    },
    async (request) => schedules.list(currentUser(request), request.query, viewerTimeZone(request, serverTimeZone)),
  );

  app.get(
    '/api/schedules/:id',
    { config, schema: { operationId: 'getSchedule', summary: 'One scheduled message', tags, params: IdParams, response: { 200: ScheduleDto } } },
    async (request) => schedules.get(currentUser(request), request.params.id),
  );

  app.put(
    '/api/schedules/:id',
    {
      config,
      schema: {
        operationId: 'updateSchedule',
        summary: 'Change a message while it is still scheduled',
        tags,
        params: IdParams,
        body: ScheduleUpdateInput,
        response: { 200: ScheduleDto },
      },
    },
    async (request) => schedules.update(currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/schedules/:id',
    {
      config,
      schema: {
        operationId: 'cancelSchedule',
        summary: 'Cancel a message while it is still scheduled (kept as cancelled)',
        tags,
        params: IdParams,
        response: { 200: ScheduleDto },
      },
    },
    async (request) => schedules.cancel(currentUser(request), request.params.id),
  );
}
