import { CloudWebhookJobPayload, ErrorBodySchema, idField } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CloudApiConfig } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { parseJsonText } from '../../http/json-body.js';
import { documentedBody } from '../../http/route-schemas.js';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import type { DriverContext } from '../channel-driver.js';
import type { ChannelConnections, ChannelSendErrors } from '../ports.js';
import type { SessionManager } from '../session-manager.js';
import { readWebhook, validSignature, webhookTimestampIssue, type WebhookPayload } from './cloud-api-inbound.js';
import { GraphClient, type FetchLike } from './graph-client.js';

export interface CloudApiWebhookOptions {
  connections: Pick<ChannelConnections, 'cloudConfig'>;
  sessions: SessionManager;
  messages: ChannelSendErrors;
  graphUrl: string;
  fetch?: FetchLike;
  log: DriverContext['log'];
}

const Params = z.object({ connectionId: idField.meta({ description: 'The cloud-api connection (its webhookPath gives it).' }) });
const VerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().max(1000).optional(),
});

const unixSeconds = z.string().meta({ description: 'Unix seconds, as text.' });

/**
 * A webhook call as Meta sends it, for the document: the route reads the raw bytes (the signature is over them) and
 * checks them itself, so this schema documents the body and is not applied (documentedBody, route-schemas.ts).
 */
const WebhookBody = documentedBody(
  z
    .looseObject({
      object: z.string().meta({ description: '`whatsapp_business_account`.' }),
      entry: z.array(
        z.looseObject({
          id: z.string().optional(),
          changes: z.array(
            z.looseObject({
              field: z.string().meta({ description: '`messages`: the only field read.' }),
              value: z.looseObject({
                metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
                contacts: z.array(z.looseObject({ wa_id: z.string() })).optional(),
                messages: z.array(z.looseObject({ id: z.string(), from: z.string(), timestamp: unixSeconds, type: z.string() })).optional(),
                statuses: z.array(z.looseObject({ id: z.string(), recipient_id: z.string(), status: z.string(), timestamp: unixSeconds.optional() })).optional(),
              }),
            }),
          ),
        }),
      ),
    })
    .meta({ description: 'Signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret).' }),
);
const tags = ['Webhooks'];

/** Largest webhook body taken (Meta batches up to a few hundred KB). */
const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Meta's webhook for `cloud-api` connections (issue 18), public routes (Meta holds no session): the GET answers
 * the verify handshake with the connection's verify token; the POST checks `X-Hub-Signature-256` against the RAW
 * body with the app secret (refused with 401 and nothing stored otherwise), queues the call as a job and answers
 * 200 at once. The job stores messages through the same pipeline as the other drivers (the message id makes a
 * retried webhook one message) and applies statuses as acks (a `failed` status stores why on the message).
 */
export async function cloudApiWebhooks(http: FastifyInstance, jobs: JobQueue, options: CloudApiWebhookOptions): Promise<void> {
  const configOf = async (whatsappId: number): Promise<CloudApiConfig | null> => {
    const row = await options.connections.cloudConfig(whatsappId);
    return row?.channel === 'cloud-api' ? row.cloud : null;
  };

  const job: JobDefinition<typeof CloudWebhookJobPayload> = {
    name: 'cloud-api.webhook',
    payload: CloudWebhookJobPayload,
    handler: async ({ whatsappId, body }) => {
      const config = await configOf(whatsappId);
      if (!config) return { skipped: 'not a cloud-api connection any more' };
      const graph = new GraphClient(options.graphUrl, config, options.fetch);
      const { messages, statuses } = readWebhook(body as WebhookPayload, config.phoneNumberId, graph);
      const outcomes: string[] = [];
      // One at a time, in order: a throw retries the whole call, and the stored ones come back as duplicates.
      for (const message of messages) outcomes.push(await options.sessions.receive(whatsappId, message));
      for (const status of statuses) {
        if (status.ack !== null) options.sessions.receiveAck(whatsappId, { id: status.id, chatId: status.chatId, ack: status.ack });
        else await options.messages.applySendError(whatsappId, status.id, status.error ?? 'failed');
      }
      return { messages: outcomes, statuses: statuses.length };
    },
    retryLimit: 10,
    retryDelaySeconds: 5,
    expireInSeconds: 300,
    pollingIntervalSeconds: 0.5,
  };
  await jobs.register(job);

  await http.register(async (scope) => {
    // The signature is over the exact bytes Meta sent: this scope keeps JSON bodies raw (only these two routes).
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

    const routes = scope.withTypeProvider<ZodTypeProvider>();
    const verify = {
      operationId: 'verifyCloudApiWebhook',
      summary: "Meta's verify handshake of a Cloud API connection's webhook: the challenge, when its verify token matches",
      tags,
      params: Params,
      querystring: VerifyQuery,
      response: { 200: z.string().meta({ description: '`hub.challenge`, as plain text.' }), 403: ErrorBodySchema },
    };
    routes.get('/api/webhooks/whatsapp/:connectionId', { config: { access: 'public' }, schema: verify }, async (request, reply) => {
      const { connectionId } = request.params;
      const query = request.query;
      const config = await configOf(connectionId);
      if (!config || query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== config.verifyToken) {
        return reply.status(403).send({ error: 'ERR_NO_PERMISSION', message: 'Verify token does not match.' });
      }
      return reply.type('text/plain').send(query['hub.challenge'] ?? '');
    });

    const receive = {
      operationId: 'receiveCloudApiWebhook',
      summary: 'A signed webhook call from Meta for a Cloud API connection (messages, statuses), queued as a job',
      tags,
      params: Params,
      body: WebhookBody,
      response: {
        200: z.object({ received: z.literal(true) }).meta({ description: 'Queued: the call is stored by a job.' }),
        400: ErrorBodySchema,
        401: ErrorBodySchema,
        404: ErrorBodySchema,
      },
    };
    routes.post('/api/webhooks/whatsapp/:connectionId', { config: { access: 'public' }, schema: receive }, async (request, reply) => {
      const { connectionId } = request.params;
      const config = await configOf(connectionId);
      if (!config) return reply.status(404).send({ error: 'ERR_NO_WAPP_FOUND', message: 'No Cloud API connection here.' });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['x-hub-signature-256'];
      if (!validSignature(raw, typeof signature === 'string' ? signature : undefined, config.appSecret)) {
        options.log.warn({ whatsappId: connectionId }, 'cloud api webhook refused: bad signature');
        return reply.status(401).send({ error: 'ERR_CLOUD_API_SIGNATURE', message: 'X-Hub-Signature-256 does not match.' });
      }
      // Bounded like every JSON body of the app: too deep or not JSON is a 400 ERR_VALIDATION.
      const body = parseJsonText(raw.toString('utf8'));
      if (!body || typeof body !== 'object' || Array.isArray(body)) return reply.status(400).send({ error: 'ERR_VALIDATION', message: 'The body is not a JSON object.' });
      const timestamp = webhookTimestampIssue(body);
      if (timestamp) {
        options.log.warn({ whatsappId: connectionId, path: timestamp.path }, 'cloud api webhook refused: a timestamp is not a time');
        throw new AppError('ERR_VALIDATION', `${timestamp.path}: ${timestamp.message}`, { issues: [timestamp] });
      }
      await jobs.send(job, { whatsappId: connectionId, body: body as Record<string, unknown> });
      return reply.status(200).send({ received: true });
    });
  });
}
