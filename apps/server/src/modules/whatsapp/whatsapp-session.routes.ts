import { idField } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse } from '../../http/validate.js';
import type { WhatsappService } from './whatsapp.service.js';

const IdParams = z.object({ id: idField });
const admin = { config: { access: 'admin' as const } };

/** Session actions of §4: retry, new QR code, disconnect. */
export function whatsappSessionRoutes(app: FastifyInstance, whatsapps: WhatsappService): void {
  app.post('/api/whatsappsession/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    await whatsapps.retrySession(id);
    return { message: 'Starting session.' };
  });

  app.put('/api/whatsappsession/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    await whatsapps.newQrSession(id);
    return { message: 'Starting session.' };
  });

  app.delete('/api/whatsappsession/:id', admin, async (request) => {
    const { id } = parse(IdParams, request.params);
    await whatsapps.disconnectSession(id);
    return { message: 'Session disconnected.' };
  });
}
