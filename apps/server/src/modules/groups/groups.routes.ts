import {
  GroupActionDto,
  GroupActionInput,
  GroupActionItemListResponse,
  GroupActionListQuery,
  GroupActionListResponse,
  GroupActionStartedResponse,
  GroupListQuery,
  GroupListResponse,
  IdParams,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth-hook.js';
import type { GroupsService } from './groups.service.js';

const tags = ['Groups'];
const config = { tool: 'groups' as const };

/**
 * Group management (/ZDGGroups, issues 13 and 32): admins, and attendants while attendantTools lists `groups`; an
 * attendant sees and cancels only the actions they started (another's answers 404).
 */
export function groupsRoutes(http: FastifyInstance, groups: GroupsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/groups',
    {
      config,
      schema: {
        operationId: 'listGroups',
        summary: 'The groups of a connection (the default one when none is named)',
        tags,
        querystring: GroupListQuery,
        response: { 200: GroupListResponse },
      },
    },
    async (request) => groups.groups(request.query.whatsappId),
  );

  app.post(
    '/api/groups/actions',
    {
      config,
      schema: {
        operationId: 'startGroupAction',
        summary: 'Start a group action after a random 5–15 s delay',
        description: "Only the action's own fields may be filled (the field rule); the others left empty.",
        tags,
        body: GroupActionInput,
        response: { 201: GroupActionStartedResponse },
      },
    },
    async (request, reply) => reply.status(201).send(await groups.start(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/groups/actions',
    {
      config,
      schema: {
        operationId: 'listGroupActions',
        summary: 'Group actions, newest first, 20 a page',
        tags,
        querystring: GroupActionListQuery,
        response: { 200: GroupActionListResponse },
      },
    },
    async (request) => groups.list(currentUser(request), request.query.pageNumber),
  );

  app.get(
    '/api/groups/actions/:id',
    { config, schema: { operationId: 'getGroupAction', summary: 'One group action with its counts', tags, params: IdParams, response: { 200: GroupActionDto } } },
    async (request) => groups.get(currentUser(request), request.params.id),
  );

  app.get(
    '/api/groups/actions/:id/items',
    {
      config,
      schema: {
        operationId: 'listGroupActionItems',
        summary: "A group action's groups or participants with their outcome, 20 a page",
        tags,
        params: IdParams,
        querystring: GroupActionListQuery,
        response: { 200: GroupActionItemListResponse },
      },
    },
    async (request) => groups.items(currentUser(request), request.params.id, request.query.pageNumber),
  );

  app.post(
    '/api/groups/actions/:id/cancel',
    {
      config,
      schema: {
        operationId: 'cancelGroupAction',
        summary: 'Cancel a group action: its steps not done yet are not done',
        tags,
        params: IdParams,
        response: { 200: GroupActionDto },
      },
    },
    async (request) => groups.cancel(currentUser(request), request.params.id),
  );
}
