import {
  IdParams,
  MakeVoiceCallInput,
  OutreachAcceptedResponse,
  OutreachDetailResponse,
  OutreachDto,
  OutreachListQuery,
  OutreachListResponse,
  OutreachStartedResponse,
  OutreachStartInput,
  SendDirectInput,
  SendSmsInput,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth-hook.js';
import type { OutreachRequest, OutreachService } from './outreach.service.js';

/** One of the three tools opens the routes; the service checks the batch's own channel (OUTREACH_TOOL). */
const outreachTools = { tool: ['sms', 'voice', 'instagram'] as const };
const apiToken = { access: 'apiToken' as const };
const tags = ['Outreach'];

/**
 * The pages /SMS, /VoiceCall and /InstaDirect (admins, and attendants while attendantTools lists the channel's tool;
 * an attendant sees and cancels only the batches they started), and the send API's three calls.
 */
export function outreachRoutes(http: FastifyInstance, outreach: OutreachService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/outreach',
    {
      config: outreachTools,
      schema: {
        operationId: 'startOutreach',
        summary: 'Start a batch of SMS, voice calls or Instagram direct messages, one recipient a line (202: queued)',
        tags,
        body: OutreachStartInput,
        response: { 202: OutreachStartedResponse },
      },
    },
    async (request, reply) => reply.status(202).send(await outreach.startFor(currentUser(request), request.body)),
  );

  app.get(
    '/api/outreach',
    {
      config: outreachTools,
      schema: {
        operationId: 'listOutreach',
        summary: "A channel's batches, newest first, 20 a page (an attendant: their own)",
        tags,
        querystring: OutreachListQuery,
        response: { 200: OutreachListResponse },
      },
    },
    async (request) => outreach.list(currentUser(request), request.query.channel, request.query.pageNumber),
  );

  app.get(
    '/api/outreach/:id',
    {
      config: outreachTools,
      schema: { operationId: 'getOutreach', summary: 'A batch and each of its recipients', tags, params: IdParams, response: { 200: OutreachDetailResponse } },
    },
    async (request) => outreach.detail(currentUser(request), request.params.id),
  );

  app.post(
    '/api/outreach/:id/cancel',
    {
      config: outreachTools,
      schema: { operationId: 'cancelOutreach', summary: 'Cancel a batch: the recipients not reached yet are not sent', tags, params: IdParams, response: { 200: OutreachDto } },
    },
    async (request) => outreach.cancel(currentUser(request), request.params.id),
  );

  // The send API (§7): one recipient, a batch of one (202 with its job, as the other sends).
  const accepted = async (input: OutreachRequest) => {
    const { batch, jobId } = await outreach.start(null, input);
    return { jobId, outreachId: batch.id };
  };
  app.post(
    '/api/sendSms',
    {
      config: apiToken,
      schema: {
        operationId: 'sendSms',
        summary: 'Send an SMS through Vonage (202: queued as a job)',
        tags: ['Send API'],
        body: SendSmsInput,
        response: { 202: OutreachAcceptedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      return reply.status(202).send(await accepted({ channel: 'sms', recipients: input.to, text: input.text, from: input.from }));
    },
  );
  app.post(
    '/api/makeVoiceCall',
    {
      config: apiToken,
      schema: {
        operationId: 'makeVoiceCall',
        summary: 'Call a number through Vonage and read the text aloud (202: queued as a job)',
        tags: ['Send API'],
        body: MakeVoiceCallInput,
        response: { 202: OutreachAcceptedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      return reply
        .status(202)
        .send(await accepted({ channel: 'voice', recipients: input.to, text: input.text, from: input.from, language: input.language }));
    },
  );
  app.post(
    '/api/sendDirect',
    {
      config: apiToken,
      schema: {
        operationId: 'sendInstagramDirect',
        summary: 'Send an Instagram direct message (202: queued as a job)',
        tags: ['Send API'],
        body: SendDirectInput,
        response: { 202: OutreachAcceptedResponse },
      },
    },
    async (request, reply) => {
      const input = request.body;
      return reply.status(202).send(await accepted({ channel: 'instagram', recipients: input.userIg, text: input.message }));
    },
  );
}
