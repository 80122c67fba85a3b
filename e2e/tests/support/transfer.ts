import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin } from './api';

/** The id of the ticket a contact's number landed in (as admin, searching every ticket). */
export async function ticketIdOf(request: APIRequestContext, number: string): Promise<number> {
  const token = await apiLogin(request);
  let id: number | undefined;
  await expect
    .poll(async () => {
      const { tickets } = await api<{ tickets: { id: number }[] }>(request, token, 'GET', `/api/tickets?searchParam=${number}&showAll=true`);
      id = tickets[0]?.id;
      return id;
    })
    .toBeDefined();
  return id!;
}

/** The ticket as the server has it. */
export async function ticketOf(request: APIRequestContext, ticketId: number) {
  const token = await apiLogin(request);
  return api<{ id: number; status: string; userId: number | null; queueId: number | null }>(request, token, 'GET', `/api/tickets/${ticketId}`);
}

/** Opens the transfer dialog from the ticket header: its button on wide screens, the "more" menu on narrow ones. */
export async function openTransfer(page: Page, labels: { transfer: string; more: string }): Promise<void> {
  await expect(page.getByTestId('ticket-title')).toBeVisible();
  const button = page.getByRole('button', { name: labels.transfer, exact: true });
  if (await button.isVisible()) {
    await button.click();
  } else {
    await page.getByRole('button', { name: labels.more }).click();
    await page.getByRole('menuitem', { name: labels.transfer, exact: true }).click();
  }
  await expect(page.getByRole('dialog')).toBeVisible();
}

/** Screenshots of the transfer dialog, when TRANSFER_SHOTS names a folder. */
export async function transferShot(page: Page, name: string): Promise<void> {
  const dir = process.env.TRANSFER_SHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${dir}/${name}.png` });
}
