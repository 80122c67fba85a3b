import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/auth-hook.js';
import type { TicketsService } from '../tickets/tickets.service.js';

export function dashboardRoutes(app: FastifyInstance, tickets: TicketsService): void {
  app.get('/api/dashboard', async (request) => tickets.dashboard(currentUser(request)));
}
