import { IdParams, MessageAnswer } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WhatsappService } from './whatsapp.service.js';

const admin = { access: 'admin' as const };
const tags = ['Connections'];

/** Session actions of §4: retry, new QR code, disconnect. */
export function whatsappSessionRoutes(http: FastifyInstance, whatsapps: WhatsappService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/whatsappsession/:id',
    {
      config: admin,
      schema: { operationId: 'retryConnectionSession', summary: "Start a connection's session again", tags, params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      await whatsapps.retrySession(request.params.id);
      return { message: 'Starting session.' };
    },
  );

  app.put(
    '/api/whatsappsession/:id',
    {
      config: admin,
      schema: {
        operationId: 'renewConnectionQrCode',
        summary: "Log the connection's device out and start again with a new QR code",
        tags,
        params: IdParams,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      await whatsapps.newQrSession(request.params.id);
      return { message: 'Starting session.' };
    },
  );

  app.delete(
    '/api/whatsappsession/:id',
    {
      config: admin,
      schema: { operationId: 'disconnectConnectionSession', summary: "Log the connection's device out: it stays DISCONNECTED until started again", tags, params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      await whatsapps.disconnectSession(request.params.id);
      return { message: 'Session disconnected.' };
    },
  );
}
