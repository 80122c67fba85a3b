import { ColleagueDto, ColleagueListResponse, IdParams, MessageAnswer, UserCreateInput, UserDto, UserListQuery, UserListResponse, UserUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import type { UsersService } from './users.service.js';

const tags = ['Users'];
const admin = { access: 'admin' as const };

export function usersRoutes(http: FastifyInstance, users: UsersService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  // Admins: the users page (every field). Attendants: colleagues by name, without e-mail or profile (§7 `GET
  // /users/`, the transfer modal's search).
  app.get(
    '/api/users',
    {
      schema: {
        operationId: 'listUsers',
        summary: 'List users, 20 a page, found by name or e-mail; attendants get colleagues by name, without e-mail or profile',
        tags,
        querystring: UserListQuery,
        response: { 200: z.union([UserListResponse, ColleagueListResponse]) },
      },
    },
    async (request) => users.list(currentUser(request), request.query.searchParam, request.query.pageNumber),
  );

  // Any signed-in user: the colleagues a ticket can be transferred to. A static path, so it wins over
  // `/api/users/:id` (ids are digits, which `list` never is).
  app.get(
    '/api/users/list',
    { schema: { operationId: 'listColleagues', summary: 'Every user with their queues: whom a ticket can be transferred to', tags, response: { 200: z.array(ColleagueDto) } } },
    async () => users.listColleagues(),
  );

  app.get(
    '/api/users/:id',
    { schema: { operationId: 'getUser', summary: 'One user (admins: anyone; others: themselves)', tags, params: IdParams, response: { 200: UserDto } } },
    async (request) => users.get(currentUser(request), request.params.id),
  );

  app.post(
    '/api/users',
    { config: admin, schema: { operationId: 'createUser', summary: 'Create a user', tags, body: UserCreateInput, response: { 201: UserDto } } },
    async (request, reply) => reply.status(201).send(await users.create(request.body)),
  );

  // Admins edit anyone; a user only their own name, e-mail and password (checked in the service).
  app.put(
    '/api/users/:id',
    {
      schema: {
        operationId: 'updateUser',
        summary: 'Change a user (admins: anyone; others: their own name, e-mail and password); the fields given change',
        tags,
        params: IdParams,
        body: UserUpdateInput,
        response: { 200: UserDto },
      },
    },
    async (request) => users.update(currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/users/:id',
    { config: admin, schema: { operationId: 'deleteUser', summary: 'Delete a user; their open tickets return to pending', tags, params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => {
      await users.delete(currentUser(request), request.params.id);
      return { message: 'User deleted' };
    },
  );
}
