import type { ConversationTicketDto, MentionableListResponse, MessageDto, TicketDto, TicketEventDto } from '@wadesk/contracts';
import { infiniteQueryOptions, useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { api } from '../../services/api';
import { ticketKey } from '../tickets/tickets-api';

export interface MessagesPage {
  messages: MessageDto[];
  /** The ticket's events in the page's span of time (accepted, transferred, resolved…). */
  events?: TicketEventDto[];
  /** The contact's earlier tickets whose messages the page holds (issue 32: the pages go on past this ticket's first). */
  tickets?: ConversationTicketDto[];
  ticket: TicketDto;
  count: number;
  hasMore: boolean;
}

export type MessagesPages = InfiniteData<MessagesPage, number>;

export const messagesKey = (ticketId: number) => ['messages', ticketId] as const;

/**
 * Pages of a ticket's messages: page 1 is the newest; each page is oldest→newest. Loading marks the
 * ticket read, unless `peek` (View on a waiting ticket).
 */
function messagesQuery(ticketId: number, peek: boolean) {
  return infiniteQueryOptions({
    queryKey: messagesKey(ticketId),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<MessagesPage>(`/messages/${ticketId}`, { params: { pageNumber: pageParam, markRead: peek ? 'false' : undefined } })).data,
    getNextPageParam: (last: MessagesPage, pages: MessagesPage[]) => (last.hasMore ? pages.length + 1 : undefined),
    staleTime: 0,
    gcTime: 60_000,
    meta: { silent: true },
  });
}

export function useMessages(ticketId: number, peek = false) {
  return useInfiniteQuery(messagesQuery(ticketId, peek));
}

/**
 * Starts loading a chat as the ticket is clicked, before the screen changes: its newest messages are asked for at
 * once (the chat, when it mounts, joins that request instead of starting its own after rendering), and the ticket
 * the list already holds shows the header and the composer at once (the chat fetches it again anyway).
 */
export function prefetchChat(queryClient: QueryClient, ticket: TicketDto, options: { peek?: boolean } = {}): void {
  // The lists are kept live (tickets-live.ts): the row's copy is as fresh as any.
  queryClient.setQueryData(ticketKey(ticket.id), ticket);
  // Pages already cached (the chat open, or just left) are refreshed by the chat itself, newest page only.
  if (queryClient.getQueryData(messagesKey(ticket.id)) === undefined) {
    void queryClient.prefetchInfiniteQuery(messagesQuery(ticket.id, !!options.peek));
  }
}

/** All loaded messages, oldest first. */
export function flattenMessages(data: InfiniteData<MessagesPage, unknown> | undefined): MessageDto[] {
  if (!data) return [];
  const out: MessageDto[] = [];
  for (let i = data.pages.length - 1; i >= 0; i -= 1) out.push(...data.pages[i].messages);
  return out;
}

/** All loaded events of the ticket, oldest first, each once. */
export function flattenEvents(data: InfiniteData<MessagesPage, unknown> | undefined): TicketEventDto[] {
  const byId = new Map<number, TicketEventDto>();
  for (const page of data?.pages ?? []) for (const event of page.events ?? []) byId.set(event.id, event);
  return [...byId.values()].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
}

/** The loaded events, stable between renders while the pages are the same. */
export function useTicketEvents(data: InfiniteData<MessagesPage, unknown> | undefined): TicketEventDto[] {
  return useMemo(() => flattenEvents(data), [data]);
}

/** The earlier tickets of all loaded pages, by id. */
export function flattenConversationTickets(data: InfiniteData<MessagesPage, unknown> | undefined): Map<number, ConversationTicketDto> {
  const byId = new Map<number, ConversationTicketDto>();
  for (const page of data?.pages ?? []) for (const ticket of page.tickets ?? []) byId.set(ticket.id, ticket);
  return byId;
}

/** The loaded earlier tickets, stable between renders while the pages are the same. */
export function useConversationTickets(data: InfiniteData<MessagesPage, unknown> | undefined): Map<number, ConversationTicketDto> {
  return useMemo(() => flattenConversationTickets(data), [data]);
}

/**
 * When the ticket changes hands or status (accepted, transferred, resolved, reopened, here or elsewhere),
 * fetches the newest page's events again so the timeline shows the new line.
 */
export function useEventsFollowTicket(ticket: TicketDto | undefined): void {
  const queryClient = useQueryClient();
  const state = ticket ? `${ticket.id}|${ticket.status}|${ticket.userId}|${ticket.queueId}` : '';
  const seen = useRef(state);
  useEffect(() => {
    if (!ticket || state === seen.current) return;
    const sameTicket = seen.current.split('|')[0] === String(ticket.id);
    seen.current = state;
    if (!sameTicket) return;
    const ticketId = ticket.id;
    void api
      .get<MessagesPage>(`/messages/${ticketId}`, { params: { pageNumber: 1, markRead: 'false' } })
      .then(({ data: fresh }) => {
        queryClient.setQueryData<MessagesPages>(messagesKey(ticketId), (data) => {
          if (!data || data.pages.length === 0) return data;
          return { ...data, pages: data.pages.map((p, i) => (i === 0 ? { ...p, events: [...(p.events ?? []), ...(fresh.events ?? [])] } : p)) };
        });
      })
      .catch(() => undefined);
  }, [state, ticket, queryClient]);
}

/** Adds (or replaces) a message in the cached conversation. */
export function upsertMessage(queryClient: QueryClient, message: MessageDto): void {
  queryClient.setQueryData<MessagesPages>(messagesKey(message.ticketId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const exists = data.pages.some((p) => p.messages.some((m) => m.id === message.id));
    if (exists) {
      return {
        ...data,
        pages: data.pages.map((p) => ({ ...p, messages: p.messages.map((m) => (m.id === message.id ? message : m)) })),
      };
    }
    return {
      ...data,
      pages: data.pages.map((p, i) => (i === 0 ? { ...p, messages: [...p.messages, message], count: p.count + 1 } : p)),
    };
  });
}

export function useUpsertMessage() {
  const queryClient = useQueryClient();
  return (message: MessageDto) => upsertMessage(queryClient, message);
}

/** Sends a text to the contact, or with `asNote` stores an internal note (issue 36 §1), never sent. */
export async function sendText(ticketId: number, body: string, quotedMsgId?: number, asNote = false): Promise<MessageDto> {
  const payload = { body, quotedMsg: quotedMsgId ? { id: quotedMsgId } : undefined, ...(asNote ? { private: true } : {}) };
  return (await api.post<MessageDto>(`/messages/${ticketId}`, payload)).data;
}

/** The colleagues who may see the ticket: whom a note's @Name may name. */
export async function fetchMentionable(ticketId: number): Promise<MentionableListResponse['users']> {
  return (await api.get<MentionableListResponse>(`/tickets/${ticketId}/mentionable`)).data.users;
}

export async function sendMedia(ticketId: number, files: File[], body: string): Promise<MessageDto[]> {
  const form = new FormData();
  form.append('body', body);
  for (const file of files) form.append('medias', file, file.name);
  return (await api.post<MessageDto[]>(`/messages/${ticketId}`, form)).data;
}

export async function deleteMessage(id: number): Promise<MessageDto | undefined> {
  return (await api.delete<MessageDto | undefined>(`/messages/${id}`)).data;
}

/**
 * Reacts to a message with an emoji; an empty emoji removes this device's reaction. Answers the reaction stored
 * (a message of the emoji replying to the one it reacts to), or undefined when removed.
 */
export async function reactToMessage(id: number, emoji: string): Promise<MessageDto | undefined> {
  const res = await api.post<MessageDto | ''>(`/messages/${id}/react`, { emoji });
  return res.status === 201 && res.data ? res.data : undefined;
}

/** Marks a ticket read (the first page load does it on the server). */
export async function markRead(ticketId: number): Promise<void> {
  await api.get(`/messages/${ticketId}`, { params: { pageNumber: 1 } });
}
