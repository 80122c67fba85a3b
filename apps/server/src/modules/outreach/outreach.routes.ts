import { MakeVoiceCallInput, OutreachListQuery, OutreachParams, OutreachStartInput, SendDirectInput, SendSmsInput } from '@wadesk/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { OutreachRequest, OutreachService } from './outreach.service.js';

/** One of the three tools opens the routes; the service checks the batch's own channel (OUTREACH_TOOL). */
const outreachTools = { config: { tool: ['sms', 'voice', 'instagram'] as const } };
const api = (summary: string, body: z.ZodType) => ({ config: { access: 'apiToken' as const, docs: { summary, body, status: 202 } } });

/**
 * The pages /SMS, /VoiceCall and /InstaDirect (admins, and attendants while attendantTools lists the channel's tool;
 * an attendant sees and cancels only the batches they started), and the send API's three calls.
 */
export function outreachRoutes(app: FastifyInstance, outreach: OutreachService): void {
  app.post('/api/outreach', outreachTools, async (request, reply) => {
    const input = parse(OutreachStartInput, request.body);
    return reply.status(202).send(await outreach.startFor(currentUser(request), input));
  });

  app.get('/api/outreach', outreachTools, async (request) => {
    const { channel, pageNumber } = parse(OutreachListQuery, request.query);
    return outreach.list(currentUser(request), channel, pageNumber);
  });

  app.get('/api/outreach/:id', outreachTools, async (request) => {
    const { id } = parse(OutreachParams, request.params);
    return outreach.detail(currentUser(request), id);
  });

  app.post('/api/outreach/:id/cancel', outreachTools, async (request) => {
    const { id } = parse(OutreachParams, request.params);
    return outreach.cancel(currentUser(request), id);
  });

  // The send API (§7): one recipient, a batch of one (202 with its job, as the other sends).
  const accepted = async (reply: FastifyReply, input: OutreachRequest) => {
    const { batch, jobId } = await outreach.start(null, input);
    return reply.status(202).send({ jobId, outreachId: batch.id });
  };
  app.post('/api/sendSms', api('Sends an SMS through Vonage (202: queued as a job)', SendSmsInput), async (request, reply) => {
    const input = parse(SendSmsInput, request.body);
    return accepted(reply, { channel: 'sms', recipients: input.to, text: input.text, from: input.from });
  });
  app.post('/api/makeVoiceCall', api('Calls a number through Vonage and reads the text aloud (202: queued as a job)', MakeVoiceCallInput), async (request, reply) => {
    const input = parse(MakeVoiceCallInput, request.body);
    return accepted(reply, { channel: 'voice', recipients: input.to, text: input.text, from: input.from, language: input.language });
  });
  app.post('/api/sendDirect', api('Sends an Instagram direct message (202: queued as a job)', SendDirectInput), async (request, reply) => {
    const input = parse(SendDirectInput, request.body);
    return accepted(reply, { channel: 'instagram', recipients: input.userIg, text: input.message });
  });
}
