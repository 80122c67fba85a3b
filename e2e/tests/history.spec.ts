import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin, unique, withAttendantTools } from './support/api';
import { pendingTicket } from './support/attendant-daily';
import { openTab, shot, ticketRow, uniqueNumber } from './support/tickets';

/**
 * The conversations happened long ago, at midday UTC. The page shows their day in the browser's time zone, which is the
 * machine's unless a test says otherwise: this file's browser runs on UTC (below), so the day is the same on a machine
 * at UTC+14 (seen failing under TZ=Pacific/Kiritimati, which showed the 11th).
 */
const BASE = Date.parse('2024-03-10T12:00:00.000Z');
/** 10 March 2024 as the English interface writes a day (month first: issue 33 item 16). */
const OLD_DAY = '03/10/2024';

/** `count` messages of one chat, a minute apart, alternating the contact and the phone. */
function chat(number: string, name: string, count: number, tag: string, startMinute = 0) {
  return Array.from({ length: count }, (_, i) => ({
    id: `E2E-${tag}-${number}-${i}`,
    chat: number,
    fromMe: i % 2 === 1,
    body: `${tag} ${i}`,
    timestamp: new Date(BASE + (startMinute + i) * 60_000).toISOString(),
    name,
  }));
}

/** Two different numbers unique to this run (two calls of uniqueNumber in one millisecond may give one number). */
function twoNumbers(): [string, string] {
  const a = uniqueNumber();
  return [a, `${a.slice(0, -2)}${String((Number(a.slice(-2)) + 37) % 100).padStart(2, '0')}`];
}

async function seedHistory(request: APIRequestContext, whatsappId: number, messages: unknown[]): Promise<void> {
  const token = await apiLogin(request);
  await api(request, token, 'POST', `/api/simulator/${whatsappId}/history`, { messages });
}

async function chooseConnection(page: Page, name: string): Promise<void> {
  await page.getByTestId('history-connection').click();
  await page.getByRole('option', { name: new RegExp(name) }).click();
}

/** Scrolls the tickets list until the row shows (the Resolved list is long in a full run: old tickets come last). */
async function findRow(page: Page, name: string) {
  const row = ticketRow(page, name);
  for (let i = 0; i < 20 && !(await row.isVisible()); i += 1) {
    await page.getByTestId('tickets-list').evaluate((el) => {
      const scroller = [el, ...Array.from(el.querySelectorAll('*'))].find((e) => e.scrollHeight > e.clientHeight + 4) ?? el;
      scroller.scrollTop = scroller.scrollHeight;
    });
    await page.waitForTimeout(300);
  }
  return row;
}

/** Issue 14: /ZDGHistorico imports the phone's history (seeded into the simulator) as durable jobs. */
test.describe('history import', () => {
  test.use({ timezoneId: 'Etc/UTC' });

  test('an admin imports the phone history and finds the old conversation under Resolved with its original dates', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `History ${unique()}` });
    const [a, b] = twoNumbers();
    const [nameA, nameB] = [`Antiga ${unique()}`, `Velha ${unique()}`];
    await seedHistory(request, connection.id, [...chat(a, nameA, 6, 'conversa', 0), ...chat(b, nameB, 4, 'outra', 30)]);

    await uiLogin(page);
    await page.getByRole('link', { name: 'Import history' }).click();
    await page.waitForURL('**/ZDGHistorico');
    await chooseConnection(page, connection.name);
    await expect(page.getByTestId('history-device')).toContainText(`10 messages in 2 chats, from ${OLD_DAY} to ${OLD_DAY}`);
    // The limit is checked before anything is sent.
    await page.getByTestId('history-limit').fill('0');
    await page.getByTestId('history-import-start').click();
    await expect(page.getByTestId('history-import-form')).toContainText('Must be a whole number from 1 to 5000');
    await page.getByTestId('history-limit').fill('50');
    await page.getByTestId('history-import-start').click();
    await expect(page.getByTestId('history-import-progress')).toHaveText('2 / 2', { timeout: 30_000 });
    await expect(page.getByTestId('history-import-status')).toHaveText('Done');
    await expect(page.getByTestId('history-import-summary')).toContainText('10 messages imported from 2 chats: 2 new closed tickets, 0 current tickets completed');
    await expect(page.getByTestId('history-import-list').locator('tbody tr').first()).toContainText('2 / 2');

    await page.goto('/tickets');
    await openTab(page, /Resolved/);
    const row = await findRow(page, nameA);
    await expect(row).toBeVisible();
    await expect(row).toContainText(OLD_DAY);
    await expect(row).toContainText('conversa 5');
    await row.click();
    const list = page.getByTestId('messages-list');
    await expect(list.getByText('conversa 0', { exact: true })).toBeVisible();
    await expect(list.getByText('conversa 5', { exact: true })).toBeVisible();
    await expect(list.getByText(OLD_DAY).first()).toBeVisible();
    await shot(page, 'history-resolved-chat-en');
  });

  test("the chat panel shows the ticket's connection (WPP id) and imports this contact's history into the open ticket", async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Chat import ${unique()}` });
    const [number, other] = twoNumbers();
    const name = `Cliente ${unique()}`;
    await contactWrites(request, connection.id, { from: number, name, body: 'Oi, voltei!' });
    await seedHistory(request, connection.id, [...chat(number, name, 3, 'antes'), ...chat(other, 'Outro', 2, 'alheia')]);

    const token = await apiLogin(request);
    const { tickets } = await api<{ tickets: { id: number }[] }>(request, token, 'GET', `/api/tickets?searchParam=${number}&showAll=true`);
    await api(request, token, 'PUT', `/api/tickets/${tickets[0]!.id}`, { status: 'open' });

    await uiLogin(page);
    await ticketRow(page, name).click();
    await page.getByRole('button', { name: 'import and export' }).click();
    const panel = page.getByTestId('import-export-panel');
    await expect(panel.getByRole('button')).toHaveText(['WPP id', 'Import', 'CSV', 'EMAIL']);
    await panel.getByTestId('chat-wpp-id').click();
    await expect(page.getByTestId('chat-wpp-id-value')).toHaveText(`This ticket uses the connection #${connection.id} ${connection.name}`);

    await panel.getByTestId('chat-history-import').click();
    const dialog = page.getByRole('dialog', { name: "Import this contact's history" });
    await expect(dialog).toContainText(name);
    await dialog.getByTestId('history-limit').fill('10');
    await dialog.getByTestId('history-import-start').click();
    await expect(dialog.getByTestId('history-import-progress')).toHaveText('1 / 1', { timeout: 30_000 });
    await expect(dialog.getByTestId('history-import-summary')).toContainText('3 messages imported from 1 chat: 0 new closed tickets, 1 current ticket completed, 0 messages were already in the desk.');
    await shot(page, 'history-chat-dialog-en');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The old messages come before the live one, in the chat's own order; the other contact's stay out.
    const list = page.getByTestId('messages-list');
    await expect(list.getByText('antes 0', { exact: true })).toBeVisible();
    await expect(list.getByText('antes 2', { exact: true })).toBeVisible();
    await expect(list.getByText('alheia 0', { exact: true })).toHaveCount(0);
    await expect(list.getByTestId('message-body')).toHaveText(['antes 0', 'antes 1', 'antes 2', 'Oi, voltei!']);
  });

  test('shows the page and the chat panel import to attendants by default; with attendantTools leaving history out, no drawer item, the path goes to / and the panel has WPP id, CSV and EMAIL only', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Attendant ${unique()}` });
    const name = `Espera ${unique()}`;
    await pendingTicket(request, connection.id, name, 'Alguém aí?');
    const attendant = await createUser(request);
    await uiLogin(page, attendant.email, attendant.password);
    await openTab(page, /Queue/);
    await ticketRow(page, name).getByRole('button', { name: 'View' }).click();
    await page.getByRole('button', { name: 'import and export' }).click();
    const panel = page.getByTestId('import-export-panel');
    await expect(panel.getByRole('button')).toHaveText(['WPP id', 'Import', 'CSV', 'EMAIL']);
    await panel.getByTestId('chat-wpp-id').click();
    await expect(page.getByTestId('chat-wpp-id-value')).toHaveText(`This ticket uses the connection #${connection.id} ${connection.name}`);
    await expect(page.getByRole('link', { name: 'Import history' })).toBeVisible();

    await withAttendantTools(request, 'bulk,email', async () => {
      // The settings event reaches the open page: the import leaves the panel and the drawer at once.
      await expect(panel.getByRole('button')).toHaveText(['WPP id', 'CSV', 'EMAIL']);
      await expect(page.getByRole('link', { name: 'Bulk text' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Import history' })).toHaveCount(0);
      await page.goto('/ZDGHistorico');
      await page.waitForURL((url) => url.pathname === '/');
    });
  });

  test('looks right in English and Portuguese, on a desktop and at 390 px', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Screens ${unique()}` });
    await seedHistory(request, connection.id, chat(uniqueNumber(), `Tela ${unique()}`, 4, 'tela'));
    const token = await apiLogin(request);
    const started = await api<{ historyImport: { id: number } }>(request, token, 'POST', '/api/history/imports', { whatsappId: connection.id, limit: 20 });
    await expect.poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/history/imports/${started.historyImport.id}`)).status).toBe('done');
    await uiLogin(page);
    for (const [lng, title] of [
      ['en', 'Import history'],
      ['pt', 'Importar histórico'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        await page.goto('/ZDGHistorico');
        await chooseConnection(page, connection.name);
        await expect(page.getByRole('heading', { name: title }).first()).toBeVisible();
        await expect(page.getByTestId('history-import-summary')).toBeVisible();
        await page.getByTestId('history-scope-one').click();
        await shot(page, `history-${lng}-${width}`);
      }
    }
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  });
});
