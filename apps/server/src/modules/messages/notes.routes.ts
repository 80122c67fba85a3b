import { idField, MentionableListResponse, MentionListResponse } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import type { TicketsService } from '../tickets/tickets.service.js';
import type { NotesService } from './notes.service.js';

const TicketParams = z.object({ ticketId: idField.meta({ description: "The ticket's id" }) });

/** Internal notes' routes beside the message routes (a note itself is `POST /api/messages/{id}` with `private: true`). */
export function notesRoutes(http: FastifyInstance, tickets: TicketsService, notes: NotesService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  // The note input's `@` autocomplete: whoever may see the ticket (admins, its queue's users, its assignee).
  app.get(
    '/api/tickets/:ticketId/mentionable',
    {
      schema: {
        operationId: 'listMentionableColleagues',
        summary: "The colleagues who may see a ticket, by name: whom an internal note's @Name may name (the caller left out)",
        tags: ['Messages'],
        params: TicketParams,
        response: { 200: MentionableListResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const ticket = await tickets.get(user, request.params.ticketId);
      return { users: await notes.mentionable(ticket, user) };
    },
  );

  // The bell's mentions after a reload: the notes that named the caller, not opened yet.
  app.get(
    '/api/mentions',
    {
      schema: {
        operationId: 'listUnseenMentions',
        summary: 'The notes that named the caller (@Name) and that they have not opened yet, newest first (20 at most)',
        tags: ['Messages'],
        response: { 200: MentionListResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { mentions: await notes.unseenMentions(user, (await tickets.viewer(user)).queueIds) };
    },
  );

  // The caller opened a ticket from a mention: its mentions of them are seen (off the bell in every browser).
  app.post(
    '/api/tickets/:ticketId/mentions/seen',
    {
      schema: {
        operationId: 'markMentionsSeen',
        summary: "Mark the caller's mentions in a ticket's notes as seen",
        tags: ['Messages'],
        params: TicketParams,
        response: { 204: z.null().meta({ description: 'Seen' }) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await tickets.get(user, request.params.ticketId);
      await notes.markMentionsSeen(user, request.params.ticketId);
      return reply.status(204).send(null);
    },
  );
}
