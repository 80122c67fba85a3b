import { DeviceHistoryQuery, HistoryImportInput, HistoryImportListQuery, idField } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { HistoryService } from './history.service.js';

const IdParams = z.object({ id: idField });
const historyTool = (summary?: string, docs: { body?: z.ZodType; query?: z.ZodType; status?: number } = {}) => ({
  config: { tool: 'history' as const, ...(summary ? { docs: { summary, ...docs } } : {}) },
});

/**
 * History import (/ZDGHistorico and the chat's, issues 14 and 32): admins, and attendants while attendantTools lists
 * `history`; an attendant sees and cancels only the imports they started (another's answers 404).
 */
export function historyRoutes(app: FastifyInstance, history: HistoryService): void {
  app.get('/api/history/device', historyTool("What the device's history holds for a connection (the default one when none is named)", { query: DeviceHistoryQuery }), async (request) => {
    const { whatsappId } = parse(DeviceHistoryQuery, request.query);
    return history.deviceSummary(whatsappId);
  });

  app.post(
    '/api/history/imports',
    historyTool("Imports the device's history: the newest `limit` messages of every chat, or of one contact's (a job)", { body: HistoryImportInput, status: 201 }),
    async (request, reply) => {
      const started = await history.start(currentUser(request).id, parse(HistoryImportInput, request.body));
      return reply.status(201).send(started);
    },
  );

  app.get('/api/history/imports', historyTool('History imports, newest first, 20 a page', { query: HistoryImportListQuery }), async (request) => {
    const { pageNumber } = parse(HistoryImportListQuery, request.query);
    return history.list(currentUser(request), pageNumber);
  });

  app.get('/api/history/imports/:id', historyTool(), async (request) => {
    const { id } = parse(IdParams, request.params);
    return history.get(currentUser(request), id);
  });

  app.post('/api/history/imports/:id/cancel', historyTool(), async (request) => {
    const { id } = parse(IdParams, request.params);
    return history.cancel(currentUser(request), id);
  });
}
