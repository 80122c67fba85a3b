import { idField, MESSAGES } from '@wadesk/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { MessagesService, OutgoingMedia } from './messages.service.js';

const TicketParams = z.object({ ticketId: idField });
const IdParams = z.object({ id: idField });
const PageQuery = z.object({ pageNumber: z.coerce.number().int().min(1).max(100000).default(1) });

const SendBody = z.object({
  body: z.string().max(30000, MESSAGES.tooLong).default(''),
  quotedMsg: z
    .object({ id: z.coerce.number().int().positive() })
    .nullable()
    .optional(),
  mediaUrl: z.string().max(2000).optional(),
  fromMe: z.boolean().optional(),
  read: z.boolean().optional(),
});

const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

async function readMultipart(request: FastifyRequest): Promise<{ body: string; files: OutgoingMedia[] }> {
  let body = '';
  const files: OutgoingMedia[] = [];
  for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 10 } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      files.push({ data, mimetype: part.mimetype, filename: part.filename });
    } else if (part.fieldname === 'body' && typeof part.value === 'string') {
      body = part.value;
    }
  }
  return { body, files };
}

export function messagesRoutes(app: FastifyInstance, tickets: TicketsService, messages: MessagesService): void {
  app.get('/api/messages/:ticketId', async (request) => {
    const { ticketId } = parse(TicketParams, request.params);
    const { pageNumber } = parse(PageQuery, request.query);
    const ticket = await tickets.get(currentUser(request), ticketId);
    const page = await messages.listPage(ticket, pageNumber);
    await messages.markRead(ticket);
    return { ...page, ticket: { ...ticket, unreadMessages: 0 } };
  });

  app.post('/api/messages/:ticketId', async (request, reply) => {
    const { ticketId } = parse(TicketParams, request.params);
    const user = currentUser(request);
    const ticket = await tickets.get(user, ticketId);
    if (request.isMultipart()) {
      const { body, files } = await readMultipart(request);
      if (files.length === 0) throw new AppError('ERR_VALIDATION', 'medias: Required');
      const sent = [];
      for (const [index, file] of files.entries()) {
        sent.push(await messages.sendMedia(ticket, { ...file, caption: index === 0 ? body : undefined, sentBy: user }));
      }
      return reply.status(201).send(sent);
    }
    const input = parse(SendBody, request.body);
    if (!input.body.trim()) throw new AppError('ERR_VALIDATION', 'body: Required', { issues: [{ path: 'body', message: 'Required' }] });
    const message = await messages.sendText(ticket, { body: input.body, quotedMessageId: input.quotedMsg?.id ?? null, sentBy: user });
    return reply.status(201).send(message);
  });

  app.delete('/api/messages/:id', async (request) => {
    const { id } = parse(IdParams, request.params);
    const user = currentUser(request);
    const record = await messages.messageRecord(id);
    if (!record) throw new AppError('ERR_NOT_FOUND', 'Message not found');
    const ticket = await tickets.get(user, record.ticketId);
    return messages.delete(id, ticket);
  });
}
