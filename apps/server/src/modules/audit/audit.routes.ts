import { AuditExportQuery, AuditListQuery, AuditListResponse } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditFilter } from './audit.repository.js';
import type { AuditService } from './audit.service.js';

const tags = ['Audit log'];
const admin = { access: 'admin' as const };

function filterOf(query: { action?: AuditFilter['action']; userId?: number; from?: string; to?: string }): AuditFilter {
  return {
    action: query.action,
    userId: query.userId,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

/**
 * The audit log (issue 37 §2), admins only. Read-only: no route changes or deletes an entry (the table's trigger
 * refuses it anyway); the export is itself recorded.
 */
export function auditRoutes(http: FastifyInstance, auditLog: AuditService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/audit',
    {
      config: admin,
      schema: {
        operationId: 'listAuditEntries',
        summary: 'Who did what: the audit log, newest first, 50 a page, filtered by action, user and period',
        tags,
        querystring: AuditListQuery,
        response: { 200: AuditListResponse },
      },
    },
    async (request) => auditLog.list(filterOf(request.query), request.query.pageNumber),
  );

  app.get(
    '/api/audit/export',
    {
      config: admin,
      schema: {
        operationId: 'exportAuditEntries',
        summary: 'The audit log as a CSV file, with the same filters (the export is recorded too)',
        tags,
        querystring: AuditExportQuery,
        response: { 200: { description: 'audit-log.csv, UTF-8', content: { 'text/csv': { schema: z.string() } } } },
      },
    },
    async (request, reply) => {
      const csv = await auditLog.exportCsv(filterOf(request.query));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
