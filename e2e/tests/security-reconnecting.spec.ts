import path from 'node:path';
import { expect, test, type Page, type Route, type WebSocketRoute } from '@playwright/test';
import { uiLogin } from './support/api.js';

/**
 * Issue 10 (web part): while the server cannot be reached (503 ERR_DB_UNAVAILABLE during a database
 * outage, or no answer at all, or the socket dropped) the app shows one non-blocking "reconnecting" bar
 * instead of error toasts, retries with backoff, and the bar goes by itself once the server is back.
 */

/** With E2E_SHOTS=<dir>, saves a screenshot of a key state there (to look at what a user sees). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

const DB_DOWN = JSON.stringify({ error: 'ERR_DB_UNAVAILABLE', message: 'The database is unavailable.' });
const banner = (page: Page) => page.getByTestId('connection-banner');
const errorToasts = (page: Page) => page.locator('.Toastify__toast--error');
const drawerLink = (page: Page, name: string) => page.getByTestId('drawer').getByRole('link', { name, exact: true });

/** Makes every API call fail the given way while `outage.on`; otherwise lets it through. */
async function simulateOutage(page: Page, kind: 'database' | 'server-down') {
  const outage = { on: false, failed: 0 };
  await page.route('**/api/**', async (route: Route) => {
    if (!outage.on) return route.continue();
    outage.failed += 1;
    if (kind === 'database') return route.fulfill({ status: 503, contentType: 'application/json', body: DB_DOWN });
    return route.abort('connectionrefused');
  });
  return outage;
}

test.describe('reconnecting bar', () => {
  test('a database outage (503 ERR_DB_UNAVAILABLE) shows the bar, no error toast, and clears by itself', async ({ page }) => {
    await uiLogin(page);
    const outage = await simulateOutage(page, 'database');
    await expect(banner(page)).toHaveCount(0);

    outage.on = true;
    await drawerLink(page, 'Contacts').click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toContainText('Connection to the server lost — reconnecting…');
    await shot(page, 'reconnecting-db-en');
    // The failed loads are retried with backoff, never shown as error toasts.
    await expect.poll(() => outage.failed, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await expect(errorToasts(page)).toHaveCount(0);
    // The page stays usable: the drawer still navigates.
    await drawerLink(page, 'Quick answers').click();
    await expect(page).toHaveURL(/\/quickAnswers$/);
    await expect(banner(page)).toBeVisible();

    outage.on = false;
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
    await expect(errorToasts(page)).toHaveCount(0);
    // The queries that failed were fetched again: the quick answers page shows its (empty) list.
    await expect(page.getByRole('table')).toBeVisible();
    await drawerLink(page, 'Contacts').click();
    await expect(page.getByRole('table')).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  test('the server down (no answer) shows the same bar, even across a reload, and the session survives', async ({ page }) => {
    await uiLogin(page);
    const outage = await simulateOutage(page, 'server-down');
    outage.on = true;
    await page.reload();
    // Start-up cannot refresh the session: it keeps trying (no sign-out, no toast) under the bar.
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toContainText('reconnecting');
    await expect.poll(() => outage.failed, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await expect(errorToasts(page)).toHaveCount(0);
    await expect(page).not.toHaveURL(/\/login$/);

    outage.on = false;
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
    await expect(page).toHaveURL(/\/tickets/);
    await expect(page.getByTestId('drawer')).toBeVisible();
    await expect(errorToasts(page)).toHaveCount(0);
  });

  test('a dropped socket shows the bar until it reconnects', async ({ page }) => {
    const sockets: WebSocketRoute[] = [];
    const drop = { on: false };
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (drop.on) {
        void ws.close();
        return;
      }
      ws.connectToServer();
      sockets.push(ws);
    });
    // Socket.IO's CONNECT answer ("40{...}") says the socket is connected, not only its WebSocket open.
    let connects = 0;
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        if (typeof frame.payload === 'string' && frame.payload.startsWith('40')) connects += 1;
      });
    });
    await uiLogin(page);
    await expect.poll(() => connects).toBeGreaterThan(0);
    await expect(banner(page)).toHaveCount(0);

    drop.on = true;
    for (const ws of sockets.splice(0)) await ws.close();
    await expect(banner(page)).toBeVisible();
    await expect(errorToasts(page)).toHaveCount(0);

    const before = connects;
    drop.on = false;
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
    expect(connects).toBeGreaterThan(before);
  });

  test('in Portuguese and at phone width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    await uiLogin(page);
    const outage = await simulateOutage(page, 'database');
    outage.on = true;
    // Within the app (a reload would stop at the start-up screen, with the bar at the very top).
    await page.getByRole('button', { name: 'abrir menu' }).click();
    await drawerLink(page, 'Contatos').click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(banner(page)).toContainText('Conexão com o servidor perdida — reconectando…');
    // Under the 48 px app bar (once it has slid in), across the whole width, no taller than two lines.
    await expect.poll(async () => (await banner(page).boundingBox())?.y).toBe(48);
    const box = await banner(page).boundingBox();
    expect(box?.width).toBe(390);
    expect(box?.height ?? 0).toBeLessThan(80);
    await shot(page, 'reconnecting-pt-390');
    await expect(errorToasts(page)).toHaveCount(0);
    outage.on = false;
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
  });
});
