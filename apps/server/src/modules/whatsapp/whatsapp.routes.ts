import { idField, isAdmin, WhatsappInput, WhatsappUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { WhatsappService } from './whatsapp.service.js';

const IdParams = z.object({ id: idField });
const admin = { config: { access: 'admin' as const } };

export function whatsappRoutes(app: FastifyInstance, whatsapps: WhatsappService): void {
  // Any signed-in user reads the connections (§6); only admins see a pending QR code.
  app.get('/api/whatsapp', async (request) => whatsapps.list(isAdmin(currentUser(request))));

  app.get('/api/whatsapp/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return whatsapps.get(id, isAdmin(currentUser(request)));
  });

  // The approved templates of a Cloud API connection (issue 18), for the chat's template picker.
  app.get('/api/whatsapp/:id/templates', async (request) => {
    const { id } = parse(IdParams, request.params);
    return whatsapps.templates(id);
  });

  app.post('/api/whatsapp', admin, async (request, reply) => {
    const whatsapp = await whatsapps.create(parse(WhatsappInput, request.body));
    return reply.status(201).send(whatsapp);
  });

  app.put('/api/whatsapp/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    return whatsapps.update(id, parse(WhatsappUpdateInput, request.body));
  });

  app.delete('/api/whatsapp/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    await whatsapps.delete(id);
    return { message: 'Whatsapp deleted.' };
  });
}
