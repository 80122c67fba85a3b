import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { api, apiLogin, contactWrites } from './api';
import { uniqueNumber } from './tickets';

/** A contact writes and a pending ticket opens; answers its id and the contact's number. */
export async function pendingTicket(request: APIRequestContext, whatsappId: number, name: string, body = 'Hello there'): Promise<{ id: number; number: string }> {
  const number = uniqueNumber();
  await contactWrites(request, whatsappId, { from: number, name, body });
  const token = await apiLogin(request);
  let id: number | undefined;
  await expect
    .poll(async () => {
      const { tickets } = await api<{ tickets: { id: number; contact: { number: string } }[] }>(
        request,
        token,
        'GET',
        `/api/tickets?status=pending&showAll=true&searchParam=${number}`,
      );
      id = tickets.find((t) => t.contact.number === number)?.id;
      return id;
    })
    .toBeTruthy();
  return { id: id!, number };
}

export interface TicketState {
  status: string;
  unreadMessages: number;
  updatedAt: string;
  lastMessageAt?: string | null;
}

export async function ticketState(request: APIRequestContext, id: number): Promise<TicketState> {
  const token = await apiLogin(request);
  return api<TicketState>(request, token, 'GET', `/api/tickets/${id}`);
}

/** A toast with this text, and where it sits. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.Toastify__toast').filter({ hasText: text });
}

/**
 * The toast sits in the bottom stack, clear of the app bar (48 px) and the ticket header below it (64 px):
 * the header's action buttons stay clickable while it shows.
 */
export async function expectAtBottom(page: Page, locator: Locator): Promise<void> {
  await expect(locator).toBeVisible();
  await expect(page.locator('.Toastify__toast-container').filter({ has: locator })).toHaveClass(/--bottom-left/);
  const box = await locator.boundingBox();
  expect(box!.y, 'toast top').toBeGreaterThan(48 + 64);
  expect(box!.y + box!.height, 'toast bottom').toBeLessThanOrEqual(page.viewportSize()!.height);
}

/** How far the conversation is from its bottom, in pixels. */
export async function distanceFromBottom(page: Page): Promise<number> {
  return page.getByTestId('messages-list').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

/** A PNG of the given size drawn by the browser (a real photo-sized image, unlike a 2×2 pixel). */
export async function pngOfSize(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d')!;
      const gradient = ctx.createLinearGradient(0, 0, w, h);
      gradient.addColorStop(0, '#00a884');
      gradient.addColorStop(1, '#1565c0');
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, w, h);
      return canvas.toDataURL('image/png').split(',')[1];
    },
    [width, height] as const,
  );
  return Buffer.from(base64, 'base64');
}
