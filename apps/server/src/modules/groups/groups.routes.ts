import { GroupActionInput, GroupActionListQuery, GroupListQuery, idField } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { GroupsService } from './groups.service.js';

const IdParams = z.object({ id: idField });
const groupsTool = (summary?: string, docs: { body?: z.ZodType; query?: z.ZodType; status?: number } = {}) => ({
  config: { tool: 'groups' as const, ...(summary ? { docs: { summary, ...docs } } : {}) },
});

/**
 * Group management (/ZDGGroups, issues 13 and 32): admins, and attendants while attendantTools lists `groups`; an
 * attendant sees and cancels only the actions they started (another's answers 404).
 */
export function groupsRoutes(app: FastifyInstance, groups: GroupsService): void {
  app.get('/api/groups', groupsTool("The groups of a connection (the default one when none is named)", { query: GroupListQuery }), async (request) => {
    const { whatsappId } = parse(GroupListQuery, request.query);
    return groups.groups(whatsappId);
  });

  app.post(
    '/api/groups/actions',
    groupsTool('Starts a group action after a random 5–15 s delay', { body: GroupActionInput, status: 201 }),
    async (request, reply) => {
      const started = await groups.start(currentUser(request).id, parse(GroupActionInput, request.body));
      return reply.status(201).send(started);
    },
  );

  app.get('/api/groups/actions', groupsTool('Group actions, newest first, 20 a page', { query: GroupActionListQuery }), async (request) => {
    const { pageNumber } = parse(GroupActionListQuery, request.query);
    return groups.list(currentUser(request), pageNumber);
  });

  app.get('/api/groups/actions/:id', groupsTool(), async (request) => {
    const { id } = parse(IdParams, request.params);
    return groups.get(currentUser(request), id);
  });

  app.get('/api/groups/actions/:id/items', groupsTool("A group action's groups or participants with their outcome", { query: GroupActionListQuery }), async (request) => {
    const { id } = parse(IdParams, request.params);
    const { pageNumber } = parse(GroupActionListQuery, request.query);
    return groups.items(currentUser(request), id, pageNumber);
  });

  app.post('/api/groups/actions/:id/cancel', groupsTool(), async (request) => {
    const { id } = parse(IdParams, request.params);
    return groups.cancel(currentUser(request), id);
  });
}
