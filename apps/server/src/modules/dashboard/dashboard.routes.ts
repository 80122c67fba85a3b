import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/auth-hook.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import type { Database } from '../../db/client.js';

/** Hour slots of the chart: 08:00 to 19:00. */
export const DASHBOARD_HOURS = Array.from({ length: 12 }, (_, i) => 8 + i);

export function dashboardRoutes(app: FastifyInstance, db: Database, tickets: TicketsService): void {
  /** Counters (open, pending, closed) and today's tickets per hour, for the caller's queues. */
  app.get('/api/dashboard', async (request) => {
    const user = currentUser(request);
    const filter = await tickets.listFilter(user, { searchParam: '', showAll: true, withUnreadMessages: false });
    const repo = new TicketsRepository(db);
    const counts = await repo.countByStatus(filter);
    const start = new Date();
    start.setHours(0, 0, 0, 0);
    const end = new Date(start.getTime() + 24 * 3600 * 1000);
    const perHour = await repo.createdPerHour(filter, start, end);
    return {
      counts,
      ticketsPerHour: DASHBOARD_HOURS.map((hour) => ({ hour: `${String(hour).padStart(2, '0')}:00`, count: perHour.get(hour) ?? 0 })),
    };
  });
}
