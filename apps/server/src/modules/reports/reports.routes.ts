import { AttendantsReport, calendarDateField, DailyReport, QueuesReport } from '@wadesk/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { timeZoneQueryParam, viewerTimeZone } from '../../http/viewer-time-zone.js';
import { queueIdsParam } from '../tickets/tickets.routes.js';
import { serverTimeZone } from '../tickets/tickets.service.js';
import type { ReportQuery, ReportsService } from './reports.service.js';

const tags = ['Reports'];

const ReportQuerySchema = z.object({
  from: calendarDateField.optional().meta({ description: "First day (YYYY-MM-DD) in the viewer's time zone; by default 6 days before `to`." }),
  to: calendarDateField.optional().meta({ description: "Last day (YYYY-MM-DD, included) in the viewer's time zone; by default today." }),
  queueIds: queueIdsParam.meta({ description: "A JSON list of queue ids (`[1,2]`): only tickets of these queues; all when absent." }),
  timeZone: timeZoneQueryParam,
});

/** Issue 36 §6 (decision 0042): any signed-in user; the service keeps an attendant to their own line. */
export function reportsRoutes(http: FastifyInstance, reports: ReportsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  const queryOf = (request: FastifyRequest, query: z.output<typeof ReportQuerySchema>): ReportQuery => ({
    from: query.from,
    to: query.to,
    queueIds: query.queueIds,
    timeZone: viewerTimeZone(request, serverTimeZone),
  });

  app.get(
    '/api/reports/attendants',
    {
      schema: {
        operationId: 'getAttendantsReport',
        summary: "Per attendant over a period: tickets handled and resolved, first response and resolution times, messages sent, CSAT (an attendant: their own line)",
        tags,
        querystring: ReportQuerySchema,
        response: { 200: AttendantsReport },
      },
    },
    async (request) => reports.attendants(currentUser(request), queryOf(request, request.query)),
  );

  app.get(
    '/api/reports/queues',
    {
      schema: {
        operationId: 'getQueuesReport',
        summary: 'Per queue over a period: the same figures (admins only)',
        tags,
        querystring: ReportQuerySchema,
        response: { 200: QueuesReport },
      },
    },
    async (request) => reports.queues(currentUser(request), queryOf(request, request.query)),
  );

  app.get(
    '/api/reports/daily',
    {
      schema: {
        operationId: 'getDailyReport',
        summary: "Per day of a period: the same figures (an attendant: their own work)",
        tags,
        querystring: ReportQuerySchema,
        response: { 200: DailyReport },
      },
    },
    async (request) => reports.daily(currentUser(request), queryOf(request, request.query)),
  );
}
