import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, unique } from './api';

/**
 * A phone number unique within the run: 13 digits, international, no plus sign. The simulator refuses
 * numbers ending in 0000, so this one ends in 7.
 */
let numbers = 0;

export function uniqueNumber(): string {
  // A counter beside the clock: a random part drawn twice in one millisecond could repeat.
  numbers = (numbers + 1) % 1000;
  return `55119${String(Date.now()).slice(-4)}${String(numbers).padStart(3, '0')}7`;
}

export interface E2eContact {
  id: number;
  name: string;
  number: string;
  email: string;
  extraInfo: { id: number; name: string; value: string }[];
}

/** Creates a contact through the API (as admin). */
export async function createContact(
  request: APIRequestContext,
  input: { name?: string; number?: string; email?: string; extraInfo?: { name: string; value: string }[] } = {},
): Promise<E2eContact> {
  const token = await apiLogin(request);
  return api<E2eContact>(request, token, 'POST', '/api/contacts', {
    name: input.name ?? `Contact ${unique()}`,
    number: input.number ?? uniqueNumber(),
    email: input.email ?? '',
    extraInfo: input.extraInfo ?? [],
  });
}

/** The contact as the API has it now (as admin). */
export async function getContact(request: APIRequestContext, id: number): Promise<E2eContact> {
  return api<E2eContact>(request, await apiLogin(request), 'GET', `/api/contacts/${id}`);
}

/** A random queue colour nobody else uses in this run. */
export function uniqueColor(): string {
  return `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')
    .toUpperCase()}`;
}

/** Creates a queue through the API (as admin). */
export async function createQueue(request: APIRequestContext, input: { name?: string; color?: string; greetingMessage?: string } = {}) {
  const token = await apiLogin(request);
  return api<{ id: number; name: string; color: string }>(request, token, 'POST', '/api/queue', {
    name: input.name ?? `Queue ${unique()}`,
    color: input.color ?? uniqueColor(),
    greetingMessage: input.greetingMessage ?? '',
  });
}

let simulator: Promise<{ id: number; name: string }> | null = null;

/** One paired simulator connection for the whole run (the first one becomes the default connection). */
export function sharedSimulator(request: APIRequestContext): Promise<{ id: number; name: string }> {
  simulator ??= connectedSimulator(request);
  return simulator;
}

interface TicketRow {
  id: number;
  status: string;
  contact: { number: string };
}

/** A contact writes in through the simulator; answers the pending ticket that opens (as admin). */
export async function inboundTicket(request: APIRequestContext, whatsappId: number, body = 'Hello, I need help') {
  const from = uniqueNumber();
  await contactWrites(request, whatsappId, { from, body, name: `Customer ${unique()}` });
  const token = await apiLogin(request);
  let ticket: TicketRow | undefined;
  await expect
    .poll(
      async () => {
        const list = await api<{ tickets: TicketRow[] }>(
          request,
          token,
          'GET',
          '/api/tickets?status=pending&showAll=true',
        );
        ticket = list.tickets.find((t) => t.contact.number === from);
        return ticket?.id;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return ticket!;
}

/** The number a dashboard counter shows. */
export async function counterValue(page: Page, testId: 'counter-open' | 'counter-pending' | 'counter-closed'): Promise<number> {
  const text = await page.getByTestId(`${testId}-value`).textContent();
  return Number(text);
}
