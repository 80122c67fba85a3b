import { expect, test, type Page } from '@playwright/test';
import { FakeTypebot, p, text } from '../../apps/server/src/test/fakes/typebot-server';
import { api, apiLogin, connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import { toast } from './support/attendant-daily';
import { openTab, outbox, ticketRow, uniqueNumber } from './support/tickets';

/** Screenshots at 1280 and 390 px, when CHATBOT_SHOTS names a folder. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.CHATBOT_SHOTS;
  if (!dir) return;
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
  const size = page.viewportSize()!;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

/** Issue 15: an admin turns the Typebot chatbot on; a contact walks a two-step flow, then asks for a person. */
test.describe('Typebot chatbot', () => {
  let typebot: FakeTypebot;
  test.beforeAll(async () => {
    typebot = await FakeTypebot.start();
    typebot.flow('e2e-bot', [
      { bubbles: [text(p('Olá! Sobre o que quer ', { text: 'falar', bold: true }, '?'))], input: { type: 'choice input', items: ['Pedidos', 'Outros'] } },
      { bubbles: [text(p('Qual é o número do pedido?'))], input: { type: 'text input' } },
      { bubbles: [text(p('Obrigado! Já verifico.'))], input: { type: 'text input' } },
    ]);
  });
  test.afterAll(async ({ request }) => {
    // The other specs run on the same server: the bot goes off again.
    const token = await apiLogin(request);
    await api(request, token, 'PUT', '/api/settings/typebot', { value: 'disabled' });
    await api(request, token, 'PUT', '/api/settings/typebotUrl', { value: '' });
    await api(request, token, 'PUT', '/api/settings/typebotName', { value: '' });
    await typebot.close();
  });

  test('admin turns the bot on; the contact walks the flow, types the hand-over keyword and the ticket waits for the attendants', async ({ page, request }) => {
    const token = await apiLogin(request);
    const connection = await connectedSimulator(request, { name: `Bot ${unique()}` });
    await uiLogin(page);

    // /ZDGChatbot explains what to do while nothing is configured.
    await page.goto('/ZDGChatbot');
    await expect(page.getByTestId('chatbot-not-configured')).toContainText('No chatbot is configured');
    await shots(page, 'chatbot-empty');

    // The admin configures and turns on the bot on the settings page.
    await page.goto('/settings');
    const url = page.getByRole('textbox', { name: 'Typebot URL' });
    await url.fill(typebot.url);
    await url.press('Enter');
    await expect(toast(page, 'Settings saved').first()).toBeVisible();
    const name = page.getByRole('textbox', { name: 'Typebot name' });
    await name.fill('e2e-bot');
    await name.press('Enter');
    await page.getByTestId('setting-typebot').click();
    await page.getByRole('option', { name: 'Enabled' }).click();
    await expect.poll(async () => (await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings')).find((s) => s.key === 'typebot')?.value).toBe('enabled');

    // A contact writes: the bot answers; "1" picks Pedidos; the order number gets the next step.
    const number = uniqueNumber();
    const contact = `Cliente bot ${unique()}`;
    await contactWrites(request, connection.id, { from: number, name: contact, body: 'oi' });
    await expect.poll(async () => (await outbox(request, connection.id, number)).map((m) => m.body)).toEqual([
      'Olá! Sobre o que quer *falar*?',
      '*1* - Pedidos\n*2* - Outros',
    ]);
    await contactWrites(request, connection.id, { from: number, body: '1' });
    await expect.poll(async () => (await outbox(request, connection.id, number)).at(-1)?.body).toBe('Qual é o número do pedido?');
    await contactWrites(request, connection.id, { from: number, body: '12345' });
    await expect.poll(async () => (await outbox(request, connection.id, number)).at(-1)?.body).toBe('Obrigado! Já verifico.');
    expect([...typebot.sessions.values()].at(-1)!.answers).toEqual(['Pedidos', '12345']);

    // The hand-over keyword: the bot stops; the ticket is pending for the attendants.
    await contactWrites(request, connection.id, { from: number, body: '#sair' });
    await page.goto('/tickets');
    await openTab(page, /Queue/);
    const row = ticketRow(page, contact);
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: 'View' }).click();
    const list = page.getByTestId('messages-list');
    await expect(list.getByText('#sair')).toBeVisible();
    await expect(page.locator('[data-testid="timeline-event"][data-kind="botHandedOver"]')).toContainText('The contact asked for a person');
    await expect(page.locator('[data-sender-kind="bot"]')).toHaveCount(4);
    await expect(page.getByTestId('bot-label').first()).toHaveText('Chatbot');
    const sent = (await outbox(request, connection.id, number)).length;
    await contactWrites(request, connection.id, { from: number, body: 'alguém?' });
    await expect(list.getByText('alguém?')).toBeVisible();
    expect(await outbox(request, connection.id, number)).toHaveLength(sent);
    await shots(page, 'chatbot-ticket');

    // /ZDGChatbot now frames the bot's page.
    await page.goto('/ZDGChatbot');
    await expect(page.getByTestId('chatbot-state')).toContainText('The chatbot is on');
    const frame = page.getByTestId('chatbot-frame');
    await expect(frame).toHaveAttribute('src', `${typebot.url}/e2e-bot`);
    await expect(page.frameLocator('[data-testid="chatbot-frame"]').locator('#bot')).toHaveText('e2e-bot');
    await shots(page, 'chatbot-page');

    // The settings, then the same pages in Portuguese.
    if (process.env.CHATBOT_SHOTS) {
      await page.goto('/settings');
      await shots(page, 'chatbot-settings');
      await page.goto('/ZDGChatbot');
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'pt'));
      await page.reload();
      await shots(page, 'chatbot-page-pt');
      await page.goto('/settings');
      await shots(page, 'chatbot-settings-pt');
      await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    }
  });
});

/** Issue 15, §8: the settings page tells the admin what turning group messages on or off does. */
test('turning group messages off and on shows what it does', async ({ page, request }) => {
  const token = await apiLogin(request);
  await uiLogin(page);
  await page.goto('/settings');
  try {
    await page.getByTestId('setting-groups').click();
    await page.getByRole('option', { name: 'Disabled' }).click();
    await expect(toast(page, 'Group messages off: no new group tickets')).toBeVisible();
    await page.getByTestId('setting-groups').click();
    await page.getByRole('option', { name: 'Enabled' }).click();
    await expect(toast(page, 'Group messages on: group chats now become tickets.')).toBeVisible();
  } finally {
    await api(request, token, 'PUT', '/api/settings/groups', { value: 'enabled' });
  }
});
