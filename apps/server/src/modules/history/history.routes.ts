import {
  DeviceHistoryQuery,
  DeviceHistorySummaryDto,
  HistoryImportDto,
  HistoryImportInput,
  HistoryImportListQuery,
  HistoryImportListResponse,
  HistoryImportStartedResponse,
  IdParams,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth-hook.js';
import type { HistoryService } from './history.service.js';

const tags = ['History import'];
const config = { tool: 'history' as const };

/**
 * History import (/ZDGHistorico and the chat's, issues 14 and 32): admins, and attendants while attendantTools lists
 * `history`; an attendant sees and cancels only the imports they started (another's answers 404).
 */
export function historyRoutes(http: FastifyInstance, history: HistoryService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/history/device',
    {
      config,
      schema: {
        operationId: 'getDeviceHistory',
        summary: "What the device's history holds for a connection (the default one when none is named)",
        tags,
        querystring: DeviceHistoryQuery,
        response: { 200: DeviceHistorySummaryDto },
      },
    },
    async (request) => history.deviceSummary(request.query.whatsappId),
  );

  app.post(
    '/api/history/imports',
    {
      config,
      schema: {
        operationId: 'startHistoryImport',
        summary: "Import the device's history: the newest `limit` messages of every chat, or of one contact's",
        description: 'It runs as a job, one chat a step; importing twice adds nothing.',
        tags,
        body: HistoryImportInput,
        response: { 201: HistoryImportStartedResponse },
      },
    },
    async (request, reply) => reply.status(201).send(await history.start(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/history/imports',
    {
      config,
      schema: {
        operationId: 'listHistoryImports',
        summary: 'History imports, newest first, 20 a page',
        tags,
        querystring: HistoryImportListQuery,
        response: { 200: HistoryImportListResponse },
      },
    },
    async (request) => history.list(currentUser(request), request.query.pageNumber),
  );

  app.get(
    '/api/history/imports/:id',
    { config, schema: { operationId: 'getHistoryImport', summary: 'One history import with its counts', tags, params: IdParams, response: { 200: HistoryImportDto } } },
    async (request) => history.get(currentUser(request), request.params.id),
  );

  app.post(
    '/api/history/imports/:id/cancel',
    {
      config,
      schema: {
        operationId: 'cancelHistoryImport',
        summary: 'Cancel a history import: the chats not imported yet are not',
        tags,
        params: IdParams,
        response: { 200: HistoryImportDto },
      },
    },
    async (request) => history.cancel(currentUser(request), request.params.id),
  );
}
