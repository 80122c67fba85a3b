import {
  IdParams,
  MessageAnswer,
  WebhookDeliveryDto,
  WebhookDeliveryListQuery,
  WebhookDeliveryListResponse,
  WebhookDeliveryParams,
  WebhookDto,
  WebhookInput,
  WebhookListResponse,
  WebhookTestResponse,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebhooksService } from './webhooks.service.js';

// Apart from 'Webhooks' (Meta's calls to the desk): these are the desk's own calls to other systems.
const tags = ['Outgoing webhooks'];
const admin = { access: 'admin' as const };

/** Outgoing webhooks (issue 37 §3): admins only, secrets included (the receiver needs them). */
export function webhooksRoutes(http: FastifyInstance, webhooks: WebhooksService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/webhooks',
    { config: admin, schema: { operationId: 'listWebhooks', summary: 'Every outgoing webhook, with its secret and its waiting and failed deliveries', tags, response: { 200: WebhookListResponse } } },
    async () => webhooks.list(),
  );

  app.post(
    '/api/webhooks',
    {
      config: admin,
      schema: {
        operationId: 'createWebhook',
        summary: 'Create an outgoing webhook (a public http(s) URL; a secret is made when none is given)',
        tags,
        body: WebhookInput,
        response: { 201: WebhookDto },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(request.body)),
  );

  app.put(
    '/api/webhooks/:id',
    {
      config: admin,
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change an outgoing webhook (an empty or missing secret keeps the current one)',
        tags,
        params: IdParams,
        body: WebhookInput,
        response: { 200: WebhookDto },
      },
    },
    async (request) => webhooks.update(request.params.id, request.body),
  );

  app.delete(
    '/api/webhooks/:id',
    { config: admin, schema: { operationId: 'deleteWebhook', summary: 'Delete an outgoing webhook and its delivery log', tags, params: IdParams, response: { 200: MessageAnswer } } },
    async (request) => {
      await webhooks.delete(request.params.id);
      return { message: 'Webhook deleted' };
    },
  );

  app.post(
    '/api/webhooks/:id/test',
    {
      config: admin,
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a signed webhook.test event now and answer how the receiver took it (not retried)',
        tags,
        params: IdParams,
        response: { 200: WebhookTestResponse },
      },
    },
    async (request) => webhooks.test(request.params.id),
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      config: admin,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "A webhook's delivery log, newest first, 20 a page",
        tags,
        params: IdParams,
        querystring: WebhookDeliveryListQuery,
        response: { 200: WebhookDeliveryListResponse },
      },
    },
    async (request) => webhooks.deliveries(request.params.id, request.query.pageNumber),
  );

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: admin,
      schema: {
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivered or failed event again (same event id), as a new delivery',
        tags,
        params: WebhookDeliveryParams,
        response: { 202: WebhookDeliveryDto },
      },
    },
    async (request, reply) => reply.status(202).send(await webhooks.redeliver(request.params.id, request.params.deliveryId)),
  );
}
