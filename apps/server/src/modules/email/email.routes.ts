import {
  EmailSentResponse,
  EmailTestInput,
  idField,
  MAX_EMAIL_ATTACHMENT_BYTES,
  SendEmailAttachInput,
  SendEmailAttachUserInput,
  SendEmailInput,
  SendEmailUserInput,
  TicketEmailInput,
} from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/auth-hook.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { EmailService } from './email.service.js';

const TicketParams = z.object({ ticketId: idField.meta({ description: 'The ticket whose conversation is sent.' }) });
const apiToken = { access: 'apiToken' as const };
const tags = ['E-mail'];
const response = { 200: EmailSentResponse };
/** The attachment routes take a base64 file of up to MAX_EMAIL_ATTACHMENT_BYTES (the app's usual limit is 2 MB). */
const ATTACH_BODY_LIMIT = Math.ceil(MAX_EMAIL_ATTACHMENT_BYTES / 3) * 4 + 256 * 1024;

function decodeAttachment(fileName: string, content: string) {
  const data = Buffer.from(content.replace(/\s+/g, ''), 'base64');
  if (data.length > MAX_EMAIL_ATTACHMENT_BYTES) {
    throw new AppError('ERR_VALIDATION', 'zdgContent: File too large (10 MB at most)', {
      issues: [{ path: 'zdgContent', message: 'File too large (10 MB at most)' }],
    });
  }
  return [{ filename: fileName, content: data }];
}

export function emailRoutes(http: FastifyInstance, email: EmailService, tickets: TicketsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/settings/email/test',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'sendTestEmail',
        summary: 'Send a test e-mail with the saved settings, to `to` or the setting emailTo',
        tags,
        body: EmailTestInput,
        response,
      },
    },
    async (request) => email.sendTest(request.body.to),
  );

  // A ticket's transcript by e-mail: the tool `email` (attendantTools, issue 32).
  app.post(
    '/api/tickets/:ticketId/email',
    {
      config: { tool: 'email' },
      schema: {
        operationId: 'emailTicketTranscript',
        summary: "E-mail a ticket's conversation (its media attached while they fit), to `to` or the setting emailTo",
        tags,
        params: TicketParams,
        body: TicketEmailInput,
        response,
      },
    },
    async (request) => {
      const ticket = await tickets.get(currentUser(request), request.params.ticketId);
      return email.sendTranscript(ticket, request.body.to, { includeNotes: request.body.includeNotes });
    },
  );

  // The send API (§7): answered when the SMTP server accepted the e-mail (one recipient: no job).
  app.post(
    '/api/zdgSendEmail',
    {
      config: apiToken,
      schema: { operationId: 'sendEmail', summary: 'Send an e-mail to the setting emailTo', tags: ['Send API'], body: SendEmailInput, response },
    },
    async (request) => email.send({ subject: request.body.zdgSubject, text: request.body.zdgText }),
  );

  app.post(
    '/api/zdgSendEmailUser',
    {
      config: apiToken,
      schema: { operationId: 'sendEmailTo', summary: 'Send an e-mail to zdgTo', tags: ['Send API'], body: SendEmailUserInput, response },
    },
    async (request) => email.send({ to: request.body.zdgTo, subject: request.body.zdgSubject, text: request.body.zdgText }),
  );

  app.post(
    '/api/zdgSendEmailAttach',
    {
      config: apiToken,
      bodyLimit: ATTACH_BODY_LIMIT,
      schema: {
        operationId: 'sendEmailWithFile',
        summary: 'Send an e-mail with a file (base64, 10 MB at most) to the setting emailTo',
        tags: ['Send API'],
        body: SendEmailAttachInput,
        response,
      },
    },
    async (request) => {
      const input = request.body;
      return email.send({ subject: input.zdgSubject, text: input.zdgText, attachments: decodeAttachment(input.zdgFileName, input.zdgContent) });
    },
  );

  app.post(
    '/api/zdgSendEmailAttachUser',
    {
      config: apiToken,
      bodyLimit: ATTACH_BODY_LIMIT,
      schema: {
        operationId: 'sendEmailWithFileTo',
        summary: 'Send an e-mail with a file (base64, 10 MB at most) to zdgTo',
        tags: ['Send API'],
        body: SendEmailAttachUserInput,
        response,
      },
    },
    async (request) => {
      const input = request.body;
      return email.send({
        to: input.zdgTo,
        subject: input.zdgSubject,
        text: input.zdgText,
        attachments: decodeAttachment(input.zdgFileName, input.zdgContent),
      });
    },
  );
}
