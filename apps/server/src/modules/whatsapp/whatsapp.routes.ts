import { idField, WhatsappInput, WhatsappUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse } from '../../http/validate.js';
import type { WhatsappService } from './whatsapp.service.js';

const IdParams = z.object({ id: idField });
const admin = { config: { access: 'admin' as const } };

export function whatsappRoutes(app: FastifyInstance, whatsapps: WhatsappService): void {
  app.get('/api/whatsapp', async () => whatsapps.list());

  app.get('/api/whatsapp/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    return whatsapps.get(id);
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
