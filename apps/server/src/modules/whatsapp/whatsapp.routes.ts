import { CloudTemplateDto, IdParams, isAdmin, MessageAnswer, WhatsappDto, WhatsappInput, WhatsappUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import type { WhatsappService } from './whatsapp.service.js';

const admin = { access: 'admin' as const };
const tags = ['Connections'];

export function whatsappRoutes(http: FastifyInstance, whatsapps: WhatsappService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  // Any signed-in user reads the connections (§6); only admins see a pending QR code.
  app.get(
    '/api/whatsapp',
    {
      schema: {
        operationId: 'listConnections',
        summary: 'Every connection with its state and queues (the QR code and Cloud API settings for admins only)',
        tags,
        response: { 200: z.array(WhatsappDto) },
      },
    },
    async (request) => whatsapps.list(isAdmin(currentUser(request))),
  );

  app.get(
    '/api/whatsapp/:id',
    {
      schema: {
        operationId: 'getConnection',
        summary: 'One connection (the QR code and Cloud API settings for admins only)',
        tags,
        params: IdParams,
        response: { 200: WhatsappDto },
      },
    },
    async (request) => whatsapps.get(request.params.id, isAdmin(currentUser(request))),
  );

  // The approved templates of a Cloud API connection (issue 18), for the chat's template picker.
  app.get(
    '/api/whatsapp/:id/templates',
    {
      schema: {
        operationId: 'listConnectionTemplates',
        summary: 'The message templates of a Cloud API connection, as Meta lists them',
        tags,
        params: IdParams,
        response: { 200: z.array(CloudTemplateDto) },
      },
    },
    async (request) => whatsapps.templates(request.params.id),
  );

  app.post(
    '/api/whatsapp',
    {
      config: admin,
      schema: {
        operationId: 'createConnection',
        summary: 'Create a connection and start its session (the first one is the default)',
        tags,
        body: WhatsappInput,
        response: { 201: WhatsappDto },
      },
    },
    async (request, reply) => reply.status(201).send(await whatsapps.create(request.body)),
  );

  app.put(
    '/api/whatsapp/:id',
    {
      config: admin,
      schema: {
        operationId: 'updateConnection',
        summary: 'Change a connection: the fields given change, the others stay',
        tags,
        params: IdParams,
        body: WhatsappUpdateInput,
        response: { 200: WhatsappDto },
      },
    },
    async (request) => whatsapps.update(request.params.id, request.body),
  );

  app.delete(
    '/api/whatsapp/:id',
    {
      config: admin,
      schema: { operationId: 'deleteConnection', summary: 'Delete a connection and stop its session', tags, params: IdParams, response: { 200: MessageAnswer } },
    },
    async (request) => {
      await whatsapps.delete(request.params.id);
      return { message: 'Whatsapp deleted.' };
    },
  );
}
