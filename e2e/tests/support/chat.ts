import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, uiLogin, unique } from './api';
import { uniqueNumber } from './tickets';

/** An open ticket of a new contact, assigned to the admin. */
export async function openTicket(request: APIRequestContext) {
  await connectedSimulator(request);
  const admin = await apiLogin(request);
  const contact = await api<{ id: number; name: string }>(request, admin, 'POST', '/api/contacts', {
    name: `Layout ${unique()}`,
    number: uniqueNumber(),
  });
  return api<{ id: number }>(request, admin, 'POST', '/api/tickets', { contactId: contact.id, status: 'open' });
}

export async function setLanguage(page: Page, lng: 'pt' | 'en' | 'es') {
  await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', new RegExp(`^${lng}`));
}

/** Signs in as the admin at 1280 × 800 and opens the ticket's chat (a first load on a busy machine may take a while). */
export async function signInToChat(page: Page, ticketId: number) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await uiLogin(page);
  await page.goto(`/tickets/${ticketId}`);
  await expect(page.getByTestId('chat-view')).toBeVisible({ timeout: 30_000 });
}
