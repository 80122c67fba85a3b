import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ValidationIssue } from '@wadesk/contracts';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { parseJsonText } from '../../http/json-body.js';
import { documentedBody } from '../../http/route-schemas.js';
import type { InboundMessage } from '../channel-driver.js';
import type { ChannelSettings } from '../ports.js';
import { fieldOf, itemsOf, timestampIssue, webhookTime } from '../webhook-time.js';
import type { InstagramHub } from './instagram-driver.js';

const PATH = '/api/webhooks/instagram';
const publicRoute = { access: 'public' as const };
const tags = ['Webhooks'];

/** Meta's verify handshake (`GET`): answered with `hub.challenge` when the mode is subscribe and the token matches. */
const VerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().optional(),
});

/**
 * A delivery as Meta sends it, for the document: the route reads the raw bytes (the signature is over them) and
 * checks them itself, so this schema documents the body and is not applied (documentedBody, route-schemas.ts).
 */
const DeliveryBody = documentedBody(
  z
    .looseObject({
      object: z.string().meta({ description: '`instagram`; any other delivery is answered IGNORED.' }),
      entry: z.array(
        z.looseObject({
          id: z.string().optional(),
          messaging: z
            .array(
              z.looseObject({
                sender: z.object({ id: z.string() }).optional(),
                recipient: z.object({ id: z.string() }).optional(),
                timestamp: z.number().int().meta({ description: 'Unix milliseconds.' }).optional(),
                message: z
                  .looseObject({ mid: z.string(), text: z.string().optional(), is_echo: z.boolean().optional(), is_deleted: z.boolean().optional() })
                  .optional(),
              }),
            )
            .optional(),
        }),
      ),
    })
    .meta({ description: 'Signed with X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret).' }),
);

const plainText = (description: string) => z.string().meta({ description });

interface WebhookBody {
  object?: string;
  entry?: {
    id?: string;
    messaging?: {
      sender?: { id?: string };
      recipient?: { id?: string };
      timestamp?: number;
      message?: { mid?: string; text?: string; is_echo?: boolean; is_deleted?: boolean };
    }[];
  }[];
}

/** Whether `header` (`sha256=<hex>`) is the HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (!secret || !header?.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
  const given = Buffer.from(header.slice('sha256='.length));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The direct messages of a webhook delivery, as the channel pipeline takes them (text only). */
export function directMessages(body: WebhookBody): InboundMessage[] {
  const messages: InboundMessage[] = [];
  for (const entry of body.entry ?? []) {
    for (const event of entry.messaging ?? []) {
      const m = event.message;
      if (!m?.mid || m.is_deleted || !event.sender?.id || !event.recipient?.id) continue;
      const fromMe = Boolean(m.is_echo);
      const chatId = fromMe ? event.recipient.id : event.sender.id;
      if (!/^\d{5,30}$/.test(chatId)) continue;
      messages.push({
        id: m.mid.slice(0, 200),
        fromMe,
        chatId,
        isGroup: false,
        kind: 'text',
        body: m.text ?? '[attachment]',
        // Checked before the delivery was taken (deliveryTimestampIssue).
        timestamp: webhookTime(event.timestamp, 'milliseconds') ?? new Date(),
      });
    }
  }
  return messages;
}

/**
 * The first messaging event of a delivery whose `timestamp` is not Unix milliseconds (required on the events that
 * carry a message, checked on the others when present), as a validation issue; null when all are.
 */
export function deliveryTimestampIssue(body: unknown): ValidationIssue | null {
  for (const [e, entry] of itemsOf(fieldOf(body, 'entry')).entries()) {
    for (const [m, event] of itemsOf(fieldOf(entry, 'messaging')).entries()) {
      const timestamp = fieldOf(event, 'timestamp');
      if (timestamp === undefined && fieldOf(event, 'message') === undefined) continue;
      const issue = timestampIssue(timestamp, 'milliseconds', `entry.${e}.messaging.${m}.timestamp`);
      if (issue) return issue;
    }
  }
  return null;
}

/**
 * Meta's webhook for Instagram direct messages: the verify-token handshake (GET) and signed deliveries (POST,
 * X-Hub-Signature-256 over the raw body with the app secret), each message handed to the running `instagram`
 * connection, which makes or continues the contact's ticket like any channel.
 */
export async function instagramWebhookRoutes(
  app: FastifyInstance,
  settings: ChannelSettings,
  hub: InstagramHub,
  log: FastifyBaseLogger,
  profileName: (userId: string) => Promise<string | null> = async () => null,
): Promise<void> {
  // The sender's name, asked once per process (best effort: a contact without one shows its id).
  const names = new Map<string, string | null>();
  const nameOf = async (userId: string) => {
    if (!names.has(userId)) names.set(userId, await profileName(userId).catch(() => null));
    return names.get(userId) ?? undefined;
  };

  app.withTypeProvider<ZodTypeProvider>().get(
    PATH,
    {
      config: publicRoute,
      schema: {
        operationId: 'verifyInstagramWebhook',
        summary: "Meta's verify handshake of the Instagram webhook: the challenge, when the verify token matches",
        tags,
        querystring: VerifyQuery,
        response: { 200: plainText('`hub.challenge`, as plain text.') },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const expected = await settings.value('instagramVerifyToken');
      const given = query['hub.verify_token'] ?? '';
      const match = expected !== '' && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      if (query['hub.mode'] !== 'subscribe' || !match) throw new AppError('ERR_NO_PERMISSION', 'The verify token does not match.');
      return reply.type('text/plain').send(query['hub.challenge'] ?? '');
    },
  );

  // The signature is over the exact bytes Meta sent: this scope keeps the JSON body raw.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      PATH,
      {
        config: publicRoute,
        schema: {
          operationId: 'receiveInstagramWebhook',
          summary: 'A signed delivery of Instagram direct messages from Meta, handed to the running instagram connection',
          tags,
          body: DeliveryBody,
          response: {
            200: plainText('`EVENT_RECEIVED`, or `IGNORED` for a delivery about another object, as plain text.'),
            503: plainText('`NO_CONNECTION`: no instagram connection runs (Meta delivers it again later).'),
          },
        },
      },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const secret = await settings.value('instagramAppSecret');
        const signature = request.headers['x-hub-signature-256'];
        if (!validSignature(raw, typeof signature === 'string' ? signature : undefined, secret)) {
          throw new AppError('ERR_WEBHOOK_SIGNATURE', 'The X-Hub-Signature-256 header does not match the body (or no app secret is set).');
        }
        // Bounded like every JSON body of the app: too deep or not JSON is a 400 ERR_VALIDATION.
        const body = parseJsonText(raw.toString('utf8')) as WebhookBody;
        if (body?.object !== 'instagram') return reply.send('IGNORED');
        const timestamp = deliveryTimestampIssue(body);
        if (timestamp) {
          log.warn({ path: timestamp.path }, 'instagram webhook refused: a timestamp is not a time');
          throw new AppError('ERR_VALIDATION', `${timestamp.path}: ${timestamp.message}`, { issues: [timestamp] });
        }
        for (const message of directMessages(body)) {
          if (!hub.receiver()) {
            log.warn({ mid: message.id }, 'an Instagram message arrived but no instagram connection runs: create one on the Connections page');
            // 503: Meta delivers it again later, when a connection runs.
            return reply.status(503).send('NO_CONNECTION');
          }
          const chatName = message.fromMe ? undefined : await nameOf(message.chatId);
          await hub.deliver(chatName ? { ...message, chatName } : message);
        }
        return reply.send('EVENT_RECEIVED');
      },
    );
  });
}
