import type {
  CloseAllTicketsInput,
  CloseAllTicketsResponse,
  ColleagueDto,
  ContactDto,
  QueueDto,
  TicketDto,
  TicketListResponse,
  TicketStatus,
  WhatsappDto,
} from '@wadesk/contracts';
import { infiniteQueryOptions, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../services/api';

export const TICKETS_KEY = ['tickets'] as const;

/** The answer of GET /api/tickets, as the contracts declare it. */
export type { TicketListResponse };

export type TicketsPages = InfiniteData<TicketListResponse, number>;

/** What one ticket list asks the server for. */
export interface TicketListParams {
  status?: TicketStatus;
  isGroup?: boolean;
  searchParam?: string;
  showAll: boolean;
  /** Undefined: no queue filter (a user without queues). */
  queueIds?: number[];
  withUnreadMessages?: boolean;
  /** Tickets carrying any of these labels; undefined or empty: no label filter. */
  labelIds?: number[];
}

/** The query of one ticket (the chat's header and composer). */
export function ticketKey(id: number | undefined) {
  return [...TICKETS_KEY, 'one', id] as const;
}

export function ticketListKey(params: TicketListParams) {
  return [...TICKETS_KEY, 'list', params] as const;
}

export function toQuery(params: TicketListParams, pageNumber: number) {
  return {
    pageNumber,
    status: params.status,
    searchParam: params.searchParam || undefined,
    showAll: params.showAll ? 'true' : 'false',
    isGroup: params.isGroup === undefined ? undefined : String(params.isGroup),
    queueIds: params.queueIds ? JSON.stringify(params.queueIds) : undefined,
    withUnreadMessages: params.withUnreadMessages ? 'true' : undefined,
    labelIds: params.labelIds?.length ? JSON.stringify(params.labelIds) : undefined,
  };
}

function ticketsListQuery(params: TicketListParams) {
  return infiniteQueryOptions({
    queryKey: ticketListKey(params),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<TicketListResponse>('/tickets', { params: toQuery(params, pageParam) })).data,
    getNextPageParam: (last: TicketListResponse, pages: TicketListResponse[]) => (last.hasMore ? pages.length + 1 : undefined),
    staleTime: 10_000,
  });
}

export function useTicketsList(params: TicketListParams, enabled = true) {
  return useInfiniteQuery({ ...ticketsListQuery(params), enabled });
}

/**
 * A list's total alone (the tab badges): the same query as the list, but its user renders again only when the
 * count changes, not on every change to the tickets in it.
 */
export function useTicketsCount(params: TicketListParams, enabled = true): number | undefined {
  return useInfiniteQuery({ ...ticketsListQuery(params), enabled, select: (data) => data.pages[0]?.count }).data;
}

export function useTicket(id: number | undefined) {
  return useQuery({
    queryKey: ticketKey(id),
    enabled: id !== undefined,
    queryFn: async () => (await api.get<TicketDto>(`/tickets/${id}`)).data,
    staleTime: 0,
    meta: { silent: true },
  });
}

export interface TicketChange {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  labelIds?: number[];
}

export async function updateTicket(id: number, change: TicketChange): Promise<TicketDto> {
  return (await api.put<TicketDto>(`/tickets/${id}`, change)).data;
}

export async function createTicket(input: { contactId: number; userId?: number; status: 'open' }): Promise<TicketDto> {
  return (await api.post<TicketDto>('/tickets', input)).data;
}

export async function resolveWithProtocol(id: number): Promise<{ protocol: string; ticket: TicketDto }> {
  return (await api.post<{ protocol: string; ticket: TicketDto }>(`/tickets/${id}/protocol`)).data;
}

export async function deleteTicket(id: number): Promise<void> {
  await api.delete(`/tickets/${id}`);
}

/** Close all: the tickets of the view given (the Inbox or Group tab with its filters); answers how many were closed. */
export async function closeAllTickets(view: NonNullable<CloseAllTicketsInput>): Promise<number> {
  return (await api.post<CloseAllTicketsResponse>('/ticketsClosed', view)).data.closed;
}

export function useQueuesList() {
  return useQuery({
    queryKey: ['queues'],
    queryFn: async () => (await api.get<QueueDto[]>('/queue')).data,
  });
}

export function useConnections(enabled = true) {
  return useQuery({
    queryKey: ['whatsapp'],
    enabled,
    queryFn: async () => (await api.get<WhatsappDto[]>('/whatsapp')).data,
  });
}

/** Every colleague (id, name, queues): whom a ticket can be transferred to; open to every signed-in user. */
export function useColleagues(enabled = true) {
  return useQuery({
    queryKey: ['users', 'list'],
    enabled,
    queryFn: async () => (await api.get<ColleagueDto[]>('/users/list')).data,
  });
}

export async function searchContacts(searchParam: string): Promise<ContactDto[]> {
  return (await api.get<{ contacts: ContactDto[] }>('/contacts', { params: { searchParam } })).data.contacts;
}

export async function createContact(input: { name: string; number: string }): Promise<ContactDto> {
  return (await api.post<ContactDto>('/contacts', input)).data;
}
