import { idField, UserCreateInput, UserListQuery, UserUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { UsersService } from './users.service.js';

const IdParams = z.object({ id: idField });
const admin = { config: { access: 'admin' as const } };

export function usersRoutes(app: FastifyInstance, users: UsersService): void {
  // Admins: the users page (every field). Attendants: colleagues by name, without e-mail or profile (§7 `GET
  // /users/`, the transfer modal's search).
  app.get('/api/users', async (request) => {
    const query = parse(UserListQuery, request.query);
    return users.list(currentUser(request), query.searchParam, query.pageNumber);
  });

  // Any signed-in user: the colleagues a ticket can be transferred to. A static path, so it wins over
  // `/api/users/:id` (ids are digits, which `list` never is).
  app.get('/api/users/list', async () => users.listColleagues());

  app.get('/api/users/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return users.get(currentUser(request), id);
  });

  app.post('/api/users', admin, async (request, reply) => {
    const user = await users.create(parse(UserCreateInput, request.body));
    return reply.status(201).send(user);
  });

  // Admins edit anyone; a user only their own name, e-mail and password (checked in the service).
  app.put('/api/users/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return users.update(currentUser(request), id, parse(UserUpdateInput, request.body));
  });

  app.delete('/api/users/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    await users.delete(currentUser(request), id);
    return { message: 'User deleted' };
  });
}
