import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, unique } from './api';
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
