import {
  CONTACT_SEARCH_MIN_LENGTH,
  type ContactCsvImportResponse,
  type ContactDto,
  type ContactImportResponse,
  type ContactInput,
  type ContactListResponse,
  type ContactUpdateInput,
  type TicketDto,
} from '@wadesk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

export const CONTACTS_KEY = ['contacts'] as const;

/** §5: contact searches run from 3 characters on, lowercased. */
export function normalizeContactSearch(text: string): string {
  const s = text.trim().toLowerCase();
  return s.length >= CONTACT_SEARCH_MIN_LENGTH ? s : '';
}

export function useContactsList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: [...CONTACTS_KEY, 'list', searchParam],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<ContactListResponse>('/contacts', { params: { searchParam, pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useContact(id: number | undefined) {
  return useQuery({
    queryKey: [...CONTACTS_KEY, 'one', id],
    enabled: id !== undefined,
    queryFn: async () => (await api.get<ContactDto>(`/contacts/${id}`)).data,
    staleTime: 0,
  });
}

export async function createContact(input: ContactInput): Promise<ContactDto> {
  return (await api.post<ContactDto>('/contacts', input)).data;
}

export async function updateContact(id: number, input: ContactUpdateInput): Promise<ContactDto> {
  return (await api.put<ContactDto>(`/contacts/${id}`, input)).data;
}

export async function deleteContact(id: number): Promise<void> {
  await api.delete(`/contacts/${id}`);
}

/** Imports the default connection's device contacts (admin). */
export async function importContacts(): Promise<ContactImportResponse> {
  return (await api.post<ContactImportResponse>('/contacts/import')).data;
}

/** Imports contacts from a CSV file (admin); a dry run only checks it and previews every line. */
export async function importContactsCsv(file: File, dryRun: boolean): Promise<ContactCsvImportResponse> {
  const form = new FormData();
  form.append('file', file);
  return (await api.post<ContactCsvImportResponse>('/contacts/import/csv', form, { params: dryRun ? { dryRun: 1 } : {} })).data;
}

/** Starts a ticket with the contact, already open and assigned to the caller (§4). */
export async function startTicket(contactId: number): Promise<TicketDto> {
  return (await api.post<TicketDto>('/tickets', { contactId, status: 'open' })).data;
}

/** Downloads every contact as CSV through the API (bearer token), then saves the file. */
export async function downloadContactsCsv(): Promise<void> {
  const { data } = await api.get<Blob>('/contacts/export.csv', { responseType: 'blob' });
  const url = URL.createObjectURL(data);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `contacts-${new Date().toISOString().slice(0, 10)}.csv`;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

type ContactsPages = InfiniteData<ContactListResponse, number>;
export type ContactChange = { action: 'create' | 'update'; contact: ContactDto } | { action: 'delete'; contactId: number };

/** Applies a created, updated or deleted contact to every cached list (a search list refetches on create). */
export function useApplyContactChange() {
  const queryClient = useQueryClient();
  return (change: ContactChange) => {
    const lists = queryClient.getQueriesData<ContactsPages>({ queryKey: [...CONTACTS_KEY, 'list'] });
    for (const [key, data] of lists) {
      if (!data) continue;
      const search = typeof key[2] === 'string' ? key[2] : '';
      if (change.action === 'delete') {
        if (!data.pages.some((p) => p.contacts.some((c) => c.id === change.contactId))) continue;
        queryClient.setQueryData<ContactsPages>(key, {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            count: Math.max(0, p.count - 1),
            contacts: p.contacts.filter((c) => c.id !== change.contactId),
          })),
        });
        continue;
      }
      const { contact } = change;
      if (data.pages.some((p) => p.contacts.some((c) => c.id === contact.id))) {
        queryClient.setQueryData<ContactsPages>(key, {
          ...data,
          pages: data.pages.map((p) => ({ ...p, contacts: p.contacts.map((c) => (c.id === contact.id ? contact : c)) })),
        });
      } else if (search) {
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
      } else {
        const pages = insertByName(data.pages, contact);
        if (pages) queryClient.setQueryData<ContactsPages>(key, { ...data, pages });
      }
    }
    if (change.action === 'delete') queryClient.removeQueries({ queryKey: [...CONTACTS_KEY, 'one', change.contactId] });
    else queryClient.setQueryData([...CONTACTS_KEY, 'one', change.contact.id], change.contact);
  };
}

/**
 * The list is ordered by name (as the server does): a new contact takes its place among the loaded pages, or
 * waits for its page when it sorts after them.
 */
function insertByName(pages: ContactListResponse[], contact: ContactDto): ContactListResponse[] | null {
  const name = contact.name.toLowerCase();
  for (let i = 0; i < pages.length; i += 1) {
    const list = pages[i].contacts;
    const at = list.findIndex((c) => c.name.toLowerCase() > name);
    const last = i === pages.length - 1;
    if (at < 0 && !(last && !pages[i].hasMore)) continue;
    const contacts = at < 0 ? [...list, contact] : [...list.slice(0, at), contact, ...list.slice(at)];
    return pages.map((p, j) => (j === i ? { ...p, contacts } : { ...p })).map((p) => ({ ...p, count: p.count + 1 }));
  }
  return null;
}

/** Live updates of the contacts table (socket `contact`). */
export function useContactsLiveUpdates(): void {
  const apply = useApplyContactChange();
  useSocketEvent('contact', (e) => apply(e));
}
