import { DashboardDto } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { timeZoneQueryParam, viewerTimeZone } from '../../http/viewer-time-zone.js';
import { queueIdsParam } from '../tickets/tickets.routes.js';
import { serverTimeZone, type TicketsService } from '../tickets/tickets.service.js';

const DashboardQuery = z.object({
  /** The queues to count, a JSON list as the ticket list takes it (`[1,2]`); the caller's own queues when absent. */
  queueIds: queueIdsParam.meta({ description: 'A JSON list of queue ids (`[1,2]`); when absent, the queues of the caller.' }),
  timeZone: timeZoneQueryParam,
});

export function dashboardRoutes(http: FastifyInstance, tickets: TicketsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  // "Today" and the hours of the chart are the viewer's (X-Time-Zone, issue 32 §5).
  app.get(
    '/api/dashboard',
    {
      schema: {
        operationId: 'getDashboard',
        summary: "Ticket counters and today's new tickets per hour, for the chosen queues",
        tags: ['Dashboard'],
        querystring: DashboardQuery,
        response: { 200: DashboardDto },
      },
    },
    async (request) => tickets.dashboard(currentUser(request), { queueIds: request.query.queueIds, timeZone: viewerTimeZone(request, serverTimeZone) }),
  );
}
