import { idField, pageNumberField, TemplateSendInput, textField } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { MessagesService } from './messages.service.js';
import { readMultipartMessage } from '../../storage/multipart-upload.js';

const TicketParams = z.object({ ticketId: idField });
const IdParams = z.object({ id: idField });
const MessageParams = z.object({ messageId: idField });
/** A reaction: one emoji; an empty one removes this device's reaction. */
const ReactBody = z.object({ emoji: z.string({ error: 'Required' }).trim().max(32, 'Too Long!') });
const PageQuery = z.object({ pageNumber: pageNumberField });
const ReadPageQuery = PageQuery.extend({ markRead: z.enum(['true', 'false']).optional() });

/**
 * A flag as existing clients send it: whaticket's front end and the scripts written for it send `read: 1`,
 * others `true` or `"true"`. Accepted and ignored: a message sent from here is always fromMe and read.
 */
const clientFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])])
  .nullable()
  .optional();

/** The JSON payload of §7: read, fromMe, mediaUrl (an empty string means none), body, quotedMsg (its id is used). */
const SendBody = z.object({
  body: textField(30000).default(''),
  quotedMsg: z
    .object({ id: idField })
    .nullable()
    .optional(),
  mediaUrl: z.preprocess((v) => (v === '' || v === null ? undefined : v), textField(2000).optional()),
  fromMe: clientFlag,
  read: clientFlag,
});

export function messagesRoutes(app: FastifyInstance, tickets: TicketsService, messages: MessagesService): void {
  app.get('/api/messages/:ticketId', async (request) => {
    const { ticketId } = parse(TicketParams, request.params);
    const { pageNumber, markRead } = parse(ReadPageQuery, request.query);
    const { ticket, earlier } = await tickets.getWithEarlier(currentUser(request), ticketId);
    const page = await messages.listPage(ticket, pageNumber, earlier);
    // `markRead=false`: a peek (View on a waiting ticket) reads without marking it read.
    if (markRead === 'false') return { ...page, ticket };
    await messages.markRead(ticket);
    return { ...page, ticket: { ...ticket, unreadMessages: 0 } };
  });

  app.post('/api/messages/:ticketId', async (request, reply) => {
    const { ticketId } = parse(TicketParams, request.params);
    const user = currentUser(request);
    const ticket = await tickets.get(user, ticketId);
    if (request.isMultipart()) {
      // Files stream to temporary files on disk; whatever was not sent is removed, whatever happens.
      const spool = await messages.uploadSpool();
      try {
        const { body, files } = await readMultipartMessage(request, spool);
        if (files.length === 0) throw new AppError('ERR_VALIDATION', 'medias: Required', { issues: [{ path: 'medias', message: 'Required' }] });
        const sent = [];
        for (const [index, file] of files.entries()) {
          sent.push(await messages.sendMedia(ticket, { ...file, caption: index === 0 ? body : undefined, sentBy: user }));
        }
        return reply.status(201).send(sent);
      } finally {
        await spool.discard();
      }
    }
    const input = parse(SendBody, request.body);
    if (input.mediaUrl) {
      // The file the URL names, fetched here; the body is its caption.
      const message = await messages.sendMediaFromUrl(ticket, { url: input.mediaUrl, caption: input.body.trim() || undefined, sentBy: user });
      return reply.status(201).send(message);
    }
    if (!input.body.trim()) throw new AppError('ERR_VALIDATION', 'body: Required', { issues: [{ path: 'body', message: 'Required' }] });
    const message = await messages.sendText(ticket, { body: input.body, quotedMessageId: input.quotedMsg?.id ?? null, sentBy: user });
    return reply.status(201).send(message);
  });

  // An approved template (Cloud API connections, issue 18): outside the 24-hour window, the only message allowed.
  app.post('/api/messages/:ticketId/template', async (request, reply) => {
    const { ticketId } = parse(TicketParams, request.params);
    const user = currentUser(request);
    const ticket = await tickets.get(user, ticketId);
    const input = parse(TemplateSendInput, request.body);
    return reply.status(201).send(await messages.sendTemplate(ticket, { ...input, sentBy: user }));
  });

  // A reaction to a message of the ticket (issue 18), on every channel that offers reactions: 201 with the
  // reaction stored (a message of the emoji replying to it), 204 when an empty emoji removed it.
  app.post('/api/messages/:messageId/react', async (request, reply) => {
    const { messageId } = parse(MessageParams, request.params);
    const user = currentUser(request);
    const record = await messages.messageRecord(messageId);
    if (!record) throw new AppError('ERR_NOT_FOUND', 'Message not found');
    // The message's ticket before the body: a message the caller may not see answers as if it did not exist.
    const ticket = await tickets.get(user, record.ticketId);
    const { emoji } = parse(ReactBody, request.body);
    const reaction = await messages.react(messageId, ticket, emoji, user);
    return reaction ? reply.status(201).send(reaction) : reply.status(204).send();
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
