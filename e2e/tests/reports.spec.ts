import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin, unique } from './support/api';
import { createQueue } from './support/desk-pages';
import { shot } from './support/tickets';

/**
 * Issue 36 §6 in Chromium: an attendant answers and resolves a ticket; the admin's /reports shows it on the
 * attendant's line and the queue's, over today, 7 and 30 days, charts it and exports it as CSV; the attendant's
 * own page shows their line only, at phone width, in Portuguese.
 */

interface Ticket {
  id: number;
  contact: { number: string };
}

async function useLanguage(page: Page, lng: 'en' | 'es' | 'pt'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
  await page.reload();
}

test.describe('reports', () => {
  let attendant: { id: number; name: string; email: string; password: string };
  let queue: { id: number; name: string };

  test.beforeAll(async ({ request }) => {
    queue = await createQueue(request, { name: `Relatórios ${unique()}` });
    attendant = await createUser(request, { name: `Rita ${unique()}`, queueIds: [queue.id] });
    const connection = await connectedSimulator(request, { queueIds: [queue.id] });
    const admin = await apiLogin(request);
    const me = await apiLogin(request, attendant.email, attendant.password);
    // Two conversations: Rita answers both (three messages) and resolves one.
    for (const [i, replies] of [2, 1].entries()) {
      const from = `55119${String(Date.now()).slice(-6)}${i}${String(Math.floor(Math.random() * 90) + 10)}`;
      await contactWrites(request, connection.id, { from, body: 'Olá, preciso de ajuda', name: `Cliente ${unique()}` });
      let ticket: Ticket | undefined;
      await expect
        .poll(async () => {
          ticket = (await api<{ tickets: Ticket[] }>(request, admin, 'GET', '/api/tickets?status=pending&showAll=true')).tickets.find((t) => t.contact.number === from);
          return ticket?.id;
        })
        .toBeTruthy();
      await api(request, me, 'PUT', `/api/tickets/${ticket!.id}`, { status: 'open', userId: attendant.id, queueId: queue.id });
      for (let r = 0; r < replies; r += 1) await api(request, me, 'POST', `/api/messages/${ticket!.id}`, { body: `Resposta ${r + 1}` });
      if (i === 0) await api(request, me, 'PUT', `/api/tickets/${ticket!.id}`, { status: 'closed' });
    }
  });

  test("the admin sees the attendant's and the queue's figures, the daily chart, and exports them", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await uiLogin(page);
    await page.getByTestId('drawer').getByRole('link', { name: 'Reports', exact: true }).click();
    await page.waitForURL('**/reports');
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();

    const row = page.getByTestId('report-attendants-row').filter({ hasText: attendant.name });
    for (const period of ['Today', '7 days', '30 days']) {
      await page.getByTestId('report-period').getByRole('button', { name: period, exact: true }).click();
      await expect(row.getByTestId('handled')).toHaveText('2');
      await expect(row.getByTestId('resolved')).toHaveText('1');
      await expect(row.getByTestId('messages')).toHaveText('3');
    }
    // A first response was measured (seconds or minutes, never the dash of "none").
    await expect(row.getByTestId('first-response')).not.toHaveText(/^—/);
    const queueRow = page.getByTestId('report-queues-table-row').filter({ hasText: queue.name });
    await expect(queueRow.getByTestId('handled')).toHaveText('2');
    await expect(page.getByTestId('report-daily').locator('.recharts-bar-rectangle').first()).toBeAttached();

    // A custom period that ended yesterday holds none of it.
    await page.getByTestId('report-period').getByRole('button', { name: 'Custom' }).click();
    const yesterday = await page.evaluate(() => {
      const d = new Date(Date.now() - 86_400_000);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    await page.getByTestId('report-to').fill(yesterday);
    await expect(row.getByTestId('messages')).toHaveText('0');
    await page.getByTestId('report-period').getByRole('button', { name: '7 days' }).click();
    await expect(row.getByTestId('messages')).toHaveText('3');
    await shot(page, 'reports-en-admin');

    // The queue filter: another queue shows none of Rita's work.
    await page.getByTestId('report-queues').getByRole('combobox').click();
    await page.getByRole('option', { name: queue.name }).click();
    await page.keyboard.press('Escape');
    await expect(row.getByTestId('messages')).toHaveText('0');
    await page.getByTestId('report-queues').getByRole('combobox').click();
    await page.getByRole('option', { name: queue.name }).click();
    await page.keyboard.press('Escape');
    await expect(row.getByTestId('messages')).toHaveText('3');

    const download = page.waitForEvent('download');
    await page.getByTestId('reports-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^reports-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await file.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain('Per attendant');
    expect(csv).toMatch(new RegExp(`${attendant.name},2,1,\\d+,\\d+,\\d+,\\d+,3,,0`));
    expect(csv).toContain(`${queue.name},2,1,`);

    await useLanguage(page, 'pt');
    await expect(page.getByRole('heading', { name: 'Relatórios', level: 1 })).toBeVisible();
    await expect(page.getByText('Por atendente')).toBeVisible();
    await expect(row.getByTestId('messages')).toHaveText('3');
    await expect(page.getByTestId('report-daily').locator('.recharts-bar-rectangle').first()).toBeAttached();
    await shot(page, 'reports-pt-admin');
    await useLanguage(page, 'en');
  });

  test('an attendant sees only their own line, at phone width, in Portuguese', async ({ page, request }) => {
    // Another attendant's work is not on Rita's page.
    const other = await createUser(request, { name: `Outro ${unique()}`, queueIds: [queue.id] });
    await page.setViewportSize({ width: 390, height: 844 });
    await uiLogin(page, attendant.email, attendant.password);
    await page.goto('/reports');
    await expect(page.getByTestId('report-attendants-row')).toHaveCount(1);
    await expect(page.getByTestId('report-daily').locator('.recharts-bar-rectangle').first()).toBeAttached();
    await shot(page, 'reports-en-attendant-phone');
    await page.goto('/tickets');
    await useLanguage(page, 'pt');
    await page.getByRole('button', { name: 'abrir menu' }).click();
    await page.getByTestId('drawer').getByRole('link', { name: 'Relatórios', exact: true }).click();
    await page.waitForURL('**/reports');
    await expect(page.getByText('Seus próprios números')).toBeVisible();
    const rows = page.getByTestId('report-attendants-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(attendant.name);
    await expect(rows.first().getByTestId('messages')).toHaveText('3');
    await expect(page.getByTestId('report-daily').locator('.recharts-bar-rectangle').first()).toBeAttached();
    await expect(page.getByText(other.name)).toHaveCount(0);
    await expect(page.getByTestId('report-queues-table')).toHaveCount(0);
    // The page fits the phone: only the tables scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'reports-pt-attendant-phone');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  });
});
