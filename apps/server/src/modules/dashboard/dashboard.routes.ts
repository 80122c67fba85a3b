import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import { viewerTimeZone } from '../../http/viewer-time-zone.js';
import { queueIdsParam } from '../tickets/tickets.routes.js';
import { serverTimeZone, type TicketsService } from '../tickets/tickets.service.js';

const DashboardQuery = z.object({
  /** The queues to count, a JSON list as the ticket list takes it (`[1,2]`); the caller's own queues when absent. */
  queueIds: queueIdsParam,
});

export function dashboardRoutes(app: FastifyInstance, tickets: TicketsService): void {
  // "Today" and the hours of the chart are the viewer's (X-Time-Zone, issue 32 §5).
  app.get('/api/dashboard', async (request) => {
    const { queueIds } = parse(DashboardQuery, request.query);
    return tickets.dashboard(currentUser(request), { queueIds, timeZone: viewerTimeZone(request, serverTimeZone) });
  });
}
