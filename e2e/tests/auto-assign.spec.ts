import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin, unique } from './support/api';
import { setLanguage } from './support/chat';
import { createQueue, shot, uniqueNumber } from './support/tickets';
import { ticketIdOf, ticketOf } from './support/transfer';

/** Opens a list page's edit dialog of the row named `name` (searching first where the page has a search box). */
async function editRow(page: Page, path: string, name: string) {
  await page.goto(path);
  const search = page.getByRole('textbox', { name: /search|pesquisar|buscar/i });
  if (await search.isVisible().catch(() => false)) await search.fill(name);
  await page.getByRole('button', { name: new RegExp(`^(edit|editar) ${name}$`) }).first().click();
}

test.describe('automatic assignment (issue 36 §4)', () => {
  test('an admin turns on "Assign automatically" for a queue and sets an attendant\'s "Max open tickets"', async ({ page, request }) => {
    const queue = await createQueue(request);
    const attendant = await createUser(request, { name: `Rui ${unique()}`, queueIds: [queue.id] });
    await page.setViewportSize({ width: 1280, height: 800 });
    await uiLogin(page);

    await editRow(page, '/queues', queue.name);
    const queueDialog = page.getByTestId('queue-modal');
    const toggle = queueDialog.getByRole('switch', { name: 'Assign automatically' });
    await expect(toggle).not.toBeChecked();
    await expect(queueDialog.getByText(/online attendant with the fewest open tickets/)).toBeVisible();
    // Keyboard: focus the switch and press Space.
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toBeChecked();
    await shot(page, 'auto-assign-en-01-queue-dialog');
    await queueDialog.getByRole('button', { name: /^save$/i }).click();
    await expect(queueDialog).toBeHidden();
    await expect(page.getByTestId('queue-row').filter({ hasText: queue.name }).getByTestId('queue-auto-assign')).toHaveText('Automatic');
    const admin = await apiLogin(request);
    expect((await api<{ autoAssign: boolean }>(request, admin, 'GET', `/api/queue/${queue.id}`)).autoAssign).toBe(true);

    await editRow(page, '/users', attendant.name);
    const userDialog = page.getByTestId('user-modal');
    const limit = userDialog.getByRole('spinbutton', { name: 'Max open tickets' });
    await expect(limit).toHaveValue('0');
    await limit.fill('-2');
    await userDialog.getByRole('button', { name: /^save$/i }).click();
    await expect(userDialog.getByText('A whole number, 0 or more')).toBeVisible();
    await limit.fill('1');
    await shot(page, 'auto-assign-en-02-user-dialog');
    await userDialog.getByRole('button', { name: /^save$/i }).click();
    await expect(userDialog).toBeHidden();
    expect((await api<{ maxOpenTickets: number }>(request, admin, 'GET', `/api/users/${attendant.id}`)).maxOpenTickets).toBe(1);

    // The same dialogs in Portuguese on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await setLanguage(page, 'pt');
    await editRow(page, '/queues', queue.name);
    await expect(page.getByTestId('queue-modal').getByRole('switch', { name: 'Atribuir automaticamente' })).toBeChecked();
    await page.getByTestId('queue-modal').getByRole('switch', { name: 'Atribuir automaticamente' }).scrollIntoViewIfNeeded();
    await shot(page, 'auto-assign-pt-390-01-queue-dialog');
    await page.getByTestId('queue-modal').getByRole('button', { name: /^cancelar$/i }).click();
    await editRow(page, '/users', attendant.name);
    await expect(page.getByTestId('user-modal').getByRole('spinbutton', { name: 'Máximo de tickets abertos' })).toHaveValue('1');
    await page.getByTestId('user-modal').getByRole('spinbutton', { name: 'Máximo de tickets abertos' }).scrollIntoViewIfNeeded();
    await shot(page, 'auto-assign-pt-390-02-user-dialog');
  });

  for (const { lng, width, texts } of [
    { lng: 'pt' as const, width: 390, texts: { toast: 'foi atribuído a você automaticamente', line: 'Atribuído automaticamente a' } },
    { lng: 'en' as const, width: 1280, texts: { toast: 'was assigned to you automatically', line: 'Assigned automatically to' } },
  ]) {
    test(`a new ticket goes to the online attendant (toast, bell, chat line), one at a time within their limit (${lng}, ${width} px)`, async ({ page, request }) => {
      const admin = await apiLogin(request);
      const queue = await createQueue(request);
      await api(request, admin, 'PUT', `/api/queue/${queue.id}`, { autoAssign: true });
      const connection = await connectedSimulator(request, { queueIds: [queue.id] });
      const attendant = await createUser(request, { name: `Lia ${unique()}`, queueIds: [queue.id] });
      await api(request, admin, 'PUT', `/api/users/${attendant.id}`, { maxOpenTickets: 1 });

      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await uiLogin(page, attendant.email, attendant.password);
      await setLanguage(page, lng);

      // A contact writes: the ticket is the attendant's at once, with a toast and a line on the bell.
      const first = { number: uniqueNumber(), name: `Marta ${unique()}` };
      await contactWrites(request, connection.id, { from: first.number, name: first.name, body: 'Hi, I need help' });
      const firstId = await ticketIdOf(request, first.number);
      await expect.poll(async () => (await ticketOf(request, firstId)).userId, { timeout: 15_000 }).toBe(attendant.id);
      expect((await ticketOf(request, firstId)).status).toBe('open');
      await expect(page.getByText(`${first.name} ${texts.toast}`).first()).toBeVisible({ timeout: 15_000 });
      // The toast itself (shot() closes toasts first).
      if (process.env.TICKETS_SHOTS) await page.screenshot({ path: `${process.env.TICKETS_SHOTS}/auto-assign-${lng}-${width}-03-toast.png` });
      await page.getByTestId('notifications-bell').click();
      const entry = page.getByTestId('transfer-notification').filter({ hasText: first.name });
      await expect(entry).toContainText(texts.toast);
      await shot(page, `auto-assign-${lng}-${width}-04-bell`);
      await entry.click();
      await page.waitForURL(`**/tickets/${firstId}`);
      await expect(page.locator('[data-testid="timeline-event"][data-kind="assigned"]')).toContainText(`${texts.line} ${attendant.name}`);
      await shot(page, `auto-assign-${lng}-${width}-05-chat`);

      // A second contact: the attendant is at their limit (1), so it waits; resolving the first frees the slot.
      const second = { number: uniqueNumber(), name: `Nuno ${unique()}` };
      await contactWrites(request, connection.id, { from: second.number, name: second.name, body: 'Hello?' });
      const secondId = await ticketIdOf(request, second.number);
      await page.waitForTimeout(1000);
      expect(await ticketOf(request, secondId)).toMatchObject({ status: 'pending', userId: null });
      const mine = await apiLogin(request, attendant.email, attendant.password);
      await api(request, mine, 'PUT', `/api/tickets/${firstId}`, { status: 'closed' });
      await expect.poll(async () => (await ticketOf(request, secondId)).userId, { timeout: 15_000 }).toBe(attendant.id);
      await expect(page.getByText(`${second.name} ${texts.toast}`).first()).toBeVisible({ timeout: 15_000 });
    });
  }
});
