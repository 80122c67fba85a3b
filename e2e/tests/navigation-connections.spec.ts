import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, createUser, uiLogin, unique } from './support/api';
import { connectionRow } from './support/connections';

/**
 * Issue 10, items 5, 6 and 18 in Chromium: the drawer shows only the pages that work (no "coming soon" tool, the
 * Simulator for admins only), attendants see the connections read-only, a Simulator connection's QR dialog leads
 * to the Simulator page, and the connection form offers the greeting placeholders.
 */


const drawer = (page: Page) => page.getByTestId('drawer');
const drawerLink = (page: Page, name: string) => drawer(page).getByRole('link', { name, exact: true });

/** Screenshots of each state, when NAV_SHOTS names a folder. */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.NAV_SHOTS;
  if (!dir) return;
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${dir}/${name}.png` });
}

/** A simulator connection left waiting for its QR code; deleted by the test that made it. */
async function waitingConnection(request: Parameters<typeof apiLogin>[0]) {
  const token = await apiLogin(request);
  const connection = await api<{ id: number; name: string }>(request, token, 'POST', '/api/whatsapp', { name: `Waiting ${unique()}`, channel: 'simulator' });
  await expect
    .poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/whatsapp/${connection.id}`)).status, { timeout: 10_000 })
    .toBe('qrcode');
  return { ...connection, remove: () => api(request, token, 'DELETE', `/api/whatsapp/${connection.id}`) };
}

test('the drawer shows every page, each one working (no "coming soon")', async ({ page }) => {
  await uiLogin(page);
  await expect(drawerLink(page, 'Connections')).toBeVisible();
  await expect(drawerLink(page, 'Simulator')).toBeVisible();
  for (const name of ['Bulk text', 'Bulk media (URL)', 'Bulk media (path)', 'Bulk audio', 'Scheduled messages', 'Chatbot']) await expect(drawerLink(page, name)).toBeVisible();
  // Group management (issue 13): groups.spec.ts checks an attendant sees it only while attendantTools lists it.
  await expect(drawerLink(page, 'Groups')).toBeVisible();
  // So is the history import (issue 14): history.spec.ts checks the same for attendants.
  await expect(drawerLink(page, 'Import history')).toBeVisible();
  // SMS, voice calls and Instagram direct (issue 16): outreach.spec.ts checks attendants.
  for (const name of ['Instagram direct', 'SMS', 'Voice calls']) await expect(drawerLink(page, name)).toBeVisible();
  await expect(drawer(page).getByText('Coming soon')).toHaveCount(0);
  await shot(page, 'en-01-drawer-admin');

  // The chat's import/export panel (WPP id, import, CSV) is covered by tickets.spec.ts (Portuguese) and history.spec.ts.
});

test('an attendant sees the connections and their states read-only, and no Simulator', async ({ page, request }) => {
  const waiting = await waitingConnection(request);
  const connected = await connectedSimulator(request, { name: `Live ${unique()}` });
  const user = await createUser(request);
  try {
    await uiLogin(page, user.email, user.password);
    await expect(drawerLink(page, 'Connections')).toBeVisible();
    await expect(drawerLink(page, 'Simulator')).toHaveCount(0);
    // Attendants have the bulk sends among the tools, and no Simulator.
    await expect(drawer(page).getByText('Tools')).toBeVisible();
    await expect(drawerLink(page, 'Bulk text')).toBeVisible();

    // The server hides the pending QR code from users.
    const token = await apiLogin(request, user.email, user.password);
    const seen = await api<{ qrcode: string; status: string }>(request, token, 'GET', `/api/whatsapp/${waiting.id}`);
    expect(seen).toMatchObject({ status: 'qrcode', qrcode: '' });

    await drawerLink(page, 'Connections').click();
    await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
    await expect(page.getByTestId('connections-read-only')).toHaveText('Only administrators can add, change or pair connections.');
    const waitingRow = connectionRow(page, waiting.name);
    const liveRow = connectionRow(page, connected.name);
    await expect(waitingRow.getByTestId('connection-status')).toHaveAttribute('data-status', 'qrcode');
    await expect(liveRow.getByTestId('connection-status')).toHaveAttribute('data-status', 'CONNECTED');
    await expect(page.getByRole('button', { name: 'Add connection' })).toHaveCount(0);
    await expect(page.getByTestId('connections-table').getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Session' })).toHaveCount(0);
    await shot(page, 'en-02-connections-attendant');

    // States stay live for attendants too.
    await api(request, await apiLogin(request), 'DELETE', `/api/whatsappsession/${connected.id}`);
    await expect(liveRow.getByTestId('connection-status')).toHaveAttribute('data-status', 'DISCONNECTED');
    await expect(liveRow.getByRole('button')).toHaveCount(0);

    await page.goto('/simulator');
    await expect(page.getByTestId('no-permission')).toBeVisible();

    // Portuguese, at phone width.
    await page.getByRole('button', { name: 'language' }).click();
    await page.getByRole('menuitem', { name: 'Português' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/connections');
    await expect(page.getByTestId('connections-read-only')).toHaveText('Somente administradores podem adicionar, alterar ou parear conexões.');
    await expect(page.getByTestId('connections-table').getByRole('button')).toHaveCount(0);
    await shot(page, 'pt-03-connections-attendant-phone');
    for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
    await page.getByRole('button', { name: 'abrir menu' }).click();
    await expect(drawerLink(page, 'Conexões')).toBeVisible();
    await shot(page, 'pt-04-drawer-attendant-phone');
  } finally {
    await waiting.remove();
    await api(request, await apiLogin(request), 'DELETE', `/api/whatsapp/${connected.id}`);
  }
});

test('the QR dialog of a Simulator connection leads to the Simulator page with that connection chosen', async ({ page, request }) => {
  const waiting = await waitingConnection(request);
  try {
    await uiLogin(page);
    await page.goto('/connections');
    const row = connectionRow(page, waiting.name);
    await row.getByRole('button', { name: 'QR code' }).click();
    const dialog = page.getByRole('dialog', { name: /scan the qr code/i });
    await expect(dialog.getByRole('img', { name: 'QR code' })).toBeVisible();
    await expect(dialog).toContainText('A Simulator connection pairs without a phone');
    await expect(dialog).not.toContainText('Linked devices');
    await shot(page, 'en-05-qr-simulator');

    await dialog.getByRole('link', { name: 'Open the Simulator' }).click();
    await expect(page).toHaveURL(new RegExp(`/simulator\\?connection=${waiting.id}$`));
    await expect(page.getByRole('combobox', { name: 'Simulated connection' })).toContainText(waiting.name);
    await page.getByRole('button', { name: 'Scan QR code' }).click();
    await expect(page.getByRole('button', { name: 'Scan QR code' })).toBeHidden();

    // In Portuguese, at phone width, with a new QR code.
    await api(request, await apiLogin(request), 'PUT', `/api/whatsappsession/${waiting.id}`);
    await page.getByRole('button', { name: 'language' }).click();
    await page.getByRole('menuitem', { name: 'Português' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/connections');
    await connectionRow(page, waiting.name).getByRole('button', { name: 'QR Code' }).click();
    const ptDialog = page.getByRole('dialog', { name: /leia o qr code/i });
    await expect(ptDialog.getByRole('link', { name: 'Abrir o Simulador' })).toBeVisible();
    await shot(page, 'pt-06-qr-simulator-phone');
  } finally {
    await waiting.remove();
  }
});

test('the connection form offers the greeting placeholders and inserts them where the cursor is', async ({ page, request }) => {
  const connection = await connectedSimulator(request, { name: `Greet ${unique()}` });
  try {
    await uiLogin(page);
    await page.goto('/connections');
    await connectionRow(page, connection.name).getByRole('button', { name: `edit ${connection.name}` }).click();
    const modal = page.getByRole('dialog', { name: 'Edit connection' });
    const placeholders = modal.getByTestId('message-placeholders');
    await expect(placeholders.getByRole('button')).toHaveText([
      '{{name}}',
      '{{user}}',
      '{{greeting}}',
      '{{date}}',
      '{{hour}}',
      '{{ticket_id}}',
      '{{queue}}',
      '{{connection}}',
    ]);

    const greeting = modal.getByRole('textbox', { name: 'Greeting message' });
    await greeting.fill('Hello !');
    await greeting.press('End');
    await greeting.press('ArrowLeft');
    await placeholders.getByRole('button', { name: '{{name}}', exact: true }).click();
    await expect(greeting).toHaveValue('Hello {{name}}!');
    await placeholders.getByRole('button', { name: '{{greeting}}', exact: true }).click();
    await expect(greeting).toHaveValue('Hello {{name}}{{greeting}}!');

    const farewell = modal.getByRole('textbox', { name: 'Farewell message' });
    await farewell.fill('Bye, ticket #');
    await placeholders.getByRole('button', { name: '{{ticket_id}}', exact: true }).click();
    await expect(farewell).toHaveValue('Bye, ticket #{{ticket_id}}');
    await shot(page, 'en-07-connection-form-placeholders');

    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toBeHidden();
    const saved = await api<{ greetingMessage: string; farewellMessage: string }>(request, await apiLogin(request), 'GET', `/api/whatsapp/${connection.id}`);
    expect(saved).toMatchObject({ greetingMessage: 'Hello {{name}}{{greeting}}!', farewellMessage: 'Bye, ticket #{{ticket_id}}' });

    await page.getByRole('button', { name: 'language' }).click();
    await page.getByRole('menuitem', { name: 'Español' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await connectionRow(page, connection.name).getByRole('button', { name: `editar ${connection.name}` }).click();
    await expect(page.getByRole('dialog').getByText('Variables que puede usar (haga clic para insertar):')).toBeVisible();
    await shot(page, 'es-08-connection-form-phone');
  } finally {
    await api(request, await apiLogin(request), 'DELETE', `/api/whatsapp/${connection.id}`);
  }
});
