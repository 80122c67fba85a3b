import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin, unique } from './api';

/** A phone number no other test uses (the simulator refuses numbers ending in 0000). */
export function customerNumber(): string {
  return `55119${String(Date.now()).slice(-7)}${Math.floor(Math.random() * 9) + 1}`;
}

/** The row of a connection in the /connections table. */
export function connectionRow(page: Page, name: string) {
  return page.getByTestId('connection-row').filter({ hasText: name });
}

/** The connections item's '!' badge in the drawer. */
export function connectionsBadge(page: Page) {
  return page.getByTestId('drawer').getByTestId('connections-badge');
}

/** Creates a connection through the add modal of /connections (the page must be open). */
export async function addConnectionThroughUi(page: Page, input: { name?: string; channel?: 'Simulator' | 'WhatsApp (Baileys)' } = {}) {
  const name = input.name ?? `Sim ${unique()}`;
  await page.getByRole('button', { name: 'Add connection' }).click();
  const modal = page.getByRole('dialog', { name: 'Add connection' });
  await modal.getByLabel('Name').fill(name);
  await modal.getByRole('combobox', { name: 'Channel' }).click();
  await page.getByRole('option', { name: input.channel ?? 'Simulator' }).click();
  await modal.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Connection saved successfully!')).toBeVisible();
  await expect(modal).toBeHidden();
  return name;
}

/** The id of a connection, by name (as admin, through the API). */
export async function connectionId(request: APIRequestContext, name: string): Promise<number> {
  const token = await apiLogin(request);
  const list = await api<{ id: number; name: string }[]>(request, token, 'GET', '/api/whatsapp');
  const found = list.find((w) => w.name === name);
  expect(found, `connection ${name}`).toBeTruthy();
  return found!.id;
}

interface TicketRow {
  id: number;
  contact: { number: string };
}

/** The ticket a customer's first message opened (as admin). */
export async function ticketOf(request: APIRequestContext, number: string): Promise<number> {
  const token = await apiLogin(request);
  let id: number | undefined;
  await expect
    .poll(
      async () => {
        const list = await api<{ tickets: TicketRow[] }>(request, token, 'GET', '/api/tickets?status=pending&showAll=true');
        id = list.tickets.find((t) => t.contact.number === number)?.id;
        return id;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return id!;
}

/** The desk answers a ticket (as admin). */
export async function deskReplies(request: APIRequestContext, ticketId: number, body: string): Promise<void> {
  const token = await apiLogin(request);
  await api(request, token, 'POST', `/api/messages/${ticketId}`, { body });
}
