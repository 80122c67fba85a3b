import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { api, apiLogin, unique } from './api';

/** A 2×2 red PNG. */
export const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

/** A short silent 8 kHz mono 8-bit WAV. */
export function tinyWav(seconds = 0.25): string {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const buf = Buffer.alloc(44 + samples);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate, 28);
  buf.writeUInt16LE(1, 32);
  buf.writeUInt16LE(8, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples, 40);
  buf.fill(128, 44);
  return `data:audio/wav;base64,${buf.toString('base64')}`;
}

let numbers = Math.floor(Math.random() * 999);

/**
 * A number no other call of this run gives: a counter beside the clock (two calls in the same millisecond
 * with one random digit were the same number one time in ten, and two schedules went to one contact). The
 * counter runs 001–999: the simulator refuses numbers ending in 0000.
 */
export function uniqueNumber(): string {
  numbers = (numbers % 999) + 1;
  // A Brazilian mobile with its ninth digit: the phone-number rule (issue 33 item 11) keeps it as it is.
  return `55119${String(Date.now()).slice(-5)}${String(numbers).padStart(3, '0')}`;
}

export interface OutboxItem {
  id: string;
  to: string;
  body: string;
  mediaType: string | null;
  ack: number;
  isDeleted: boolean;
}

/** What the simulated phone sent to a number. */
export async function outbox(request: APIRequestContext, whatsappId: number, to: string): Promise<OutboxItem[]> {
  const token = await apiLogin(request);
  return api<OutboxItem[]>(request, token, 'GET', `/api/simulator/${whatsappId}/outbox?to=${to}`);
}

export async function simulatorAck(request: APIRequestContext, whatsappId: number, id: string, ack: number): Promise<void> {
  const token = await apiLogin(request);
  await api(request, token, 'POST', `/api/simulator/${whatsappId}/ack`, { id, ack });
}

export async function createQuickAnswer(request: APIRequestContext, message: string) {
  const token = await apiLogin(request);
  const shortcut = `qa${unique()}`;
  await api(request, token, 'POST', '/api/quickAnswers', { shortcut, message });
  return shortcut;
}

export async function createQueue(request: APIRequestContext) {
  const token = await apiLogin(request);
  return api<{ id: number; name: string }>(request, token, 'POST', '/api/queue', {
    name: `Queue ${unique()}`,
    color: `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`,
    greetingMessage: '',
  });
}

/** The row of a contact's ticket in the visible list. */
export function ticketRow(page: Page, contactName: string): Locator {
  return page.getByTestId('tickets-list').locator('[data-testid^="ticket-row-"]').filter({ hasText: contactName });
}

/** Screenshots of each state, when TICKETS_SHOTS names a folder. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.TICKETS_SHOTS;
  if (!dir) return;
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${dir}/${name}.png` });
}

export async function openTab(page: Page, name: RegExp): Promise<void> {
  await page.getByRole('tab', { name }).click();
}

export async function expectTicketStatus(request: APIRequestContext, ticketId: number, status: string): Promise<void> {
  const token = await apiLogin(request);
  await expect.poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/tickets/${ticketId}`)).status).toBe(status);
}
