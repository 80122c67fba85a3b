import { idField, ScheduleInput, ScheduleListQuery, ScheduleUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import { viewerTimeZone } from '../../http/viewer-time-zone.js';
import { serverTimeZone } from '../tickets/tickets.service.js';
import type { SchedulesService } from './schedules.service.js';

const IdParams = z.object({ id: idField });
const signedIn = (summary: string, docs: { body?: z.ZodType; query?: z.ZodType; status?: number } = {}) => ({
  config: { access: 'user' as const, tool: 'schedules' as const, docs: { summary, ...docs } },
});

/**
 * Scheduled messages (/ZDGAgendamento, the chat's clock button; issue 14): any signed-in user schedules for any
 * contact (contacts are open to every user); an attendant sees and changes only their own schedules (another's
 * answers 404), an admin every one. Attendants while attendantTools lists `schedules` (issue 32).
 */
export function schedulesRoutes(app: FastifyInstance, schedules: SchedulesService): void {
  app.post('/api/schedules', signedIn('Schedules a message to a contact or a number at sendAt', { body: ScheduleInput, status: 201 }), async (request, reply) => {
    const created = await schedules.create(currentUser(request), parse(ScheduleInput, request.body));
    return reply.status(201).send(created);
  });

  app.get('/api/schedules', signedIn("Scheduled messages, 20 a page (date: a day of the viewer's time zone, X-Time-Zone)", { query: ScheduleListQuery }), async (request) => {
    return schedules.list(currentUser(request), parse(ScheduleListQuery, request.query), viewerTimeZone(request, serverTimeZone));
  });

  app.get('/api/schedules/:id', signedIn('One scheduled message'), async (request) => {
    const { id } = parse(IdParams, request.params);
    return schedules.get(currentUser(request), id);
  });

  app.put('/api/schedules/:id', signedIn('Changes a message while it is still scheduled', { body: ScheduleUpdateInput }), async (request) => {
    const { id } = parse(IdParams, request.params);
    return schedules.update(currentUser(request), id, parse(ScheduleUpdateInput, request.body));
  });

  app.delete('/api/schedules/:id', signedIn('Cancels a message while it is still scheduled (kept as cancelled)'), async (request) => {
    const { id } = parse(IdParams, request.params);
    return schedules.cancel(currentUser(request), id);
  });
}
