import { idField, MessageDto, MessagesPageDto, pageNumberField, TemplateSendInput, textField, type TicketDto } from '@wadesk/contracts';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/auth-hook.js';
import { fileField } from '../../http/route-schemas.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { MessagesService } from './messages.service.js';
import { readMultipartMessage } from '../../storage/multipart-upload.js';
import { notesRoutes } from './notes.routes.js';

/**
 * `/api/messages/{id}` names a ticket for GET and POST (its messages) and a message for DELETE: one parameter name,
 * so that the document has one path (the URLs are §7's).
 */
const TicketIdParams = z.object({ id: idField.meta({ description: "The ticket's id" }) });
const MessageIdParams = z.object({ id: idField.meta({ description: "The message's id" }) });
const TicketParams = z.object({ ticketId: idField.meta({ description: "The ticket's id" }) });
const MessageParams = z.object({ messageId: idField.meta({ description: "The message's id" }) });
/** A reaction: one emoji; an empty one removes this device's reaction. */
const ReactBody = z.object({ emoji: z.string({ error: 'Required' }).trim().max(32, 'Too Long!') });
const PageQuery = z.object({ pageNumber: pageNumberField });
const ReadPageQuery = PageQuery.extend({
  markRead: z.enum(['true', 'false']).optional().meta({ description: '`false`: a peek, the ticket is not marked read' }),
});

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
  private: z
    .boolean()
    .optional()
    .meta({ description: 'true: an internal note (text only), seen by whoever may see the ticket and never sent to the contact' }),
});

/**
 * What POST /api/messages/{id} reads: SendBody as JSON, or a multipart/form-data body of files `medias` and a caption
 * `body` (read by the handler, readMultipartMessage). `medias` is documented here; in a JSON body it is ignored.
 */
const SendOrUploadBody = SendBody.extend({
  medias: z.array(fileField).optional().meta({ description: 'multipart/form-data only: the files to send, the first with `body` as its caption' }),
});

const tags = ['Messages'];

/**
 * The ticket before the body: a ticket (or a message's ticket) the caller may not see answers 403/404 whatever the
 * body (route-access.test), as if it did not exist. Fastify validates the body before the handler, so the routes that
 * take a required body look the ticket up in preValidation, once the path holds an id (a bad one is validation's 400),
 * and keep it for the handler (`checkedTicket`).
 */
const checkedTickets = new WeakMap<FastifyRequest, TicketDto>();

function ticketFirst(tickets: TicketsService): preValidationAsyncHookHandler {
  return async (request) => {
    const path = TicketParams.safeParse(request.params);
    if (path.success) checkedTickets.set(request, await tickets.get(currentUser(request), path.data.ticketId));
  };
}

function messageTicketFirst(tickets: TicketsService, messages: MessagesService): preValidationAsyncHookHandler {
  return async (request) => {
    const path = MessageParams.safeParse(request.params);
    if (!path.success) return;
    const record = await messages.messageRecord(path.data.messageId);
    if (!record) throw new AppError('ERR_NOT_FOUND', 'Message not found');
    checkedTickets.set(request, await tickets.get(currentUser(request), record.ticketId));
  };
}

/** The ticket its preValidation checked (the handler runs only when the path was valid, so it was looked up). */
function checkedTicket(request: FastifyRequest): TicketDto {
  const ticket = checkedTickets.get(request);
  if (!ticket) throw new Error(`${request.url}: the ticket was not checked before the handler`);
  return ticket;
}

export function messagesRoutes(http: FastifyInstance, tickets: TicketsService, messages: MessagesService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/messages/:id',
    {
      schema: {
        operationId: 'listTicketMessages',
        summary: "A page of a ticket's messages and events, newest first, going on into the contact's earlier tickets; marks the ticket read",
        tags,
        params: TicketIdParams,
        querystring: ReadPageQuery,
        response: { 200: MessagesPageDto },
      },
    },
    async (request, reply) => {
      const { pageNumber, markRead } = request.query;
      const viewer = await tickets.viewer(currentUser(request));
      const { ticket, pageJson: page } = await messages.chatPage(viewer, request.params.id, pageNumber);
      // `markRead=false`: a peek (View on a waiting ticket) reads without marking it read.
      const shown = markRead === 'false' ? ticket : { ...ticket, unreadMessages: 0 };
      if (markRead !== 'false') await messages.markRead(ticket);
      // The page as PostgreSQL wrote its messages (JSON text, issue 35 item 2): a string is sent as it is.
      return reply.type('application/json; charset=utf-8').send(`${page},"ticket":${JSON.stringify(shown)}}` as unknown as MessagesPageDto);
    },
  );

  app.post(
    '/api/messages/:id',
    {
      schema: {
        operationId: 'sendTicketMessage',
        summary: 'Send a text, a file by URL, or uploaded files (multipart) to the contact of a ticket; or add an internal note (`private`)',
        tags,
        consumes: ['application/json', 'multipart/form-data'],
        params: TicketIdParams,
        body: SendOrUploadBody,
        response: {
          201: z
            .union([MessageDto, z.array(MessageDto)])
            .meta({ description: 'The message sent; for a multipart upload, one message a file, in order' }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const ticket = await tickets.get(user, request.params.id);
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
      const input = request.body;
      if (input.private) {
        // An internal note (issue 36 §1): text only, stored and shown, never handed to the connection.
        if (input.mediaUrl) throw new AppError('ERR_VALIDATION', 'private: A note is text only', { issues: [{ path: 'private', message: 'A note is text only' }] });
        if (!input.body.trim()) throw new AppError('ERR_VALIDATION', 'body: Required', { issues: [{ path: 'body', message: 'Required' }] });
        const note = await messages.notes.add(ticket, { body: input.body, sentBy: user, quotedMessageId: input.quotedMsg?.id ?? null });
        return reply.status(201).send(note);
      }
      if (input.mediaUrl) {
        // The file the URL names, fetched here; the body is its caption.
        const message = await messages.sendMediaFromUrl(ticket, { url: input.mediaUrl, caption: input.body.trim() || undefined, sentBy: user });
        return reply.status(201).send(message);
      }
      if (!input.body.trim()) throw new AppError('ERR_VALIDATION', 'body: Required', { issues: [{ path: 'body', message: 'Required' }] });
      const message = await messages.sendText(ticket, { body: input.body, quotedMessageId: input.quotedMsg?.id ?? null, sentBy: user });
      return reply.status(201).send(message);
    },
  );

  // An approved template (Cloud API connections, issue 18): outside the 24-hour window, the only message allowed.
  app.post(
    '/api/messages/:ticketId/template',
    {
      preValidation: ticketFirst(tickets),
      schema: {
        operationId: 'sendTicketTemplate',
        summary: "Send an approved template to a ticket's contact (Cloud API connections)",
        tags,
        params: TicketParams,
        body: TemplateSendInput,
        response: { 201: MessageDto },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await messages.sendTemplate(checkedTicket(request), { ...request.body, sentBy: currentUser(request) }));
    },
  );

  // A reaction to a message of the ticket (issue 18), on every channel that offers reactions: 201 with the
  // reaction stored (a message of the emoji replying to it), 204 when an empty emoji removed it.
  app.post(
    '/api/messages/:messageId/react',
    {
      preValidation: messageTicketFirst(tickets, messages),
      schema: {
        operationId: 'reactToMessage',
        summary: "React to a message with an emoji; an empty emoji removes the desk's reaction",
        tags,
        params: MessageParams,
        body: ReactBody,
        response: {
          201: MessageDto,
          204: z.null().meta({ description: 'The reaction removed' }),
        },
      },
    },
    async (request, reply) => {
      const reaction = await messages.react(request.params.messageId, checkedTicket(request), request.body.emoji, currentUser(request));
      return reaction ? reply.status(201).send(reaction) : reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/messages/:id',
    {
      schema: {
        operationId: 'deleteMessage',
        summary: 'Delete a message sent from the desk, for everyone; it stays in the chat marked deleted',
        tags,
        params: MessageIdParams,
        response: { 200: MessageDto },
      },
    },
    async (request) => {
      const { id } = request.params;
      const user = currentUser(request);
      const record = await messages.messageRecord(id);
      if (!record) throw new AppError('ERR_NOT_FOUND', 'Message not found');
      const ticket = await tickets.get(user, record.ticketId);
      return messages.delete(id, ticket, user);
    },
  );

  notesRoutes(http, tickets, messages.notes);
}
