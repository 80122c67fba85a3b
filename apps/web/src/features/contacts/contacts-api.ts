import {
  type ContactCsvImportResponse,
  type ContactDto,
  type ContactImportResponse,
  type ContactInput,
  type ContactUpdateInput,
  type TicketDto,
} from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { applyToSearchedPages, insertSorted, type ItemChange } from '../../hooks/list-cache';
import { itemActions, restResource, useResourceItem, useSearchedPages } from '../../hooks/rest-resource';
import { api, downloadFile } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

export const CONTACTS_KEY = ['contacts'] as const;

const contacts = restResource<ContactDto, ContactInput, ContactUpdateInput>('/contacts', CONTACTS_KEY);
/** The contact panel saves through this (it keeps its own cache up to date). */
export const { update: updateContact } = contacts;

export function useContactsList(searchParam: string) {
  return useSearchedPages(contacts, 'contacts', searchParam);
}

export function useContact(id: number | undefined) {
  return useResourceItem(contacts, id);
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
  await downloadFile('/contacts/export.csv', `contacts-${new Date().toISOString().slice(0, 10)}.csv`);
}

/**
 * Applies a created, updated or deleted contact to every cached list. The list is ordered by name (as the server
 * does): a new contact takes its place among the loaded pages, or waits for its page when it sorts after them;
 * a search list fetches again.
 */
export function useApplyContactChange() {
  const queryClient = useQueryClient();
  return (change: ItemChange<ContactDto>) =>
    applyToSearchedPages(queryClient, CONTACTS_KEY, 'contacts', change, (pages, contact, search) =>
      search ? 'refetch' : insertSorted(pages, 'contacts', contact, (c) => c.name.toLowerCase()),
    );
}

/** Saving and deleting contacts, shown in the lists at once. */
export function useContactActions() {
  return itemActions(contacts, useApplyContactChange());
}

/** Live updates of the contacts table (socket `contact`). */
export function useContactsLiveUpdates(): void {
  const apply = useApplyContactChange();
  useSocketEvent('contact', (e) => apply(e.action === 'delete' ? { action: 'delete', id: e.contactId } : { action: e.action, item: e.contact }));
}
