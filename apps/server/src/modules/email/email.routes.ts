import {
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
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { EmailService } from './email.service.js';

const TicketParams = z.object({ ticketId: idField });
const admin = { config: { access: 'admin' as const } };
const api = (summary: string, body: z.ZodType) => ({ config: { access: 'apiToken' as const, docs: { summary, body } } });
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

export function emailRoutes(app: FastifyInstance, email: EmailService, tickets: TicketsService): void {
  app.post('/api/settings/email/test', admin, async (request) => {
    const { to } = parse(EmailTestInput, request.body ?? {});
    return email.sendTest(to);
  });

  // A ticket's transcript by e-mail: the tool `email` (attendantTools, issue 32).
  app.post('/api/tickets/:ticketId/email', { config: { tool: 'email' } }, async (request) => {
    const { ticketId } = parse(TicketParams, request.params);
    const user = currentUser(request);
    const ticket = await tickets.get(user, ticketId);
    const { to } = parse(TicketEmailInput, request.body ?? {});
    return email.sendTranscript(ticket, to);
  });

  // The send API (§7): answered when the SMTP server accepted the e-mail (one recipient: no job).
  app.post('/api/zdgSendEmail', api('Sends an e-mail to the setting emailTo', SendEmailInput), async (request) => {
    const input = parse(SendEmailInput, request.body);
    return email.send({ subject: input.zdgSubject, text: input.zdgText });
  });

  app.post('/api/zdgSendEmailUser', api('Sends an e-mail to zdgTo', SendEmailUserInput), async (request) => {
    const input = parse(SendEmailUserInput, request.body);
    return email.send({ to: input.zdgTo, subject: input.zdgSubject, text: input.zdgText });
  });

  app.post(
    '/api/zdgSendEmailAttach',
    { ...api('Sends an e-mail with a file (base64) to the setting emailTo', SendEmailAttachInput), bodyLimit: ATTACH_BODY_LIMIT },
    async (request) => {
      const input = parse(SendEmailAttachInput, request.body);
      return email.send({ subject: input.zdgSubject, text: input.zdgText, attachments: decodeAttachment(input.zdgFileName, input.zdgContent) });
    },
  );

  app.post(
    '/api/zdgSendEmailAttachUser',
    { ...api('Sends an e-mail with a file (base64) to zdgTo', SendEmailAttachUserInput), bodyLimit: ATTACH_BODY_LIMIT },
    async (request) => {
      const input = parse(SendEmailAttachUserInput, request.body);
      return email.send({
        to: input.zdgTo,
        subject: input.zdgSubject,
        text: input.zdgText,
        attachments: decodeAttachment(input.zdgFileName, input.zdgContent),
      });
    },
  );
}
