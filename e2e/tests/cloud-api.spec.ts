import { expect, test, type Page } from '@playwright/test';
import { FakeGraphServer } from '../../apps/server/src/test/fakes/cloud-api-server';
import { api, apiLogin, uiLogin, unique } from './support/api';
import { connectionId, connectionRow } from './support/connections';
import { openTab, ticketRow } from './support/tickets';

/**
 * Issue 18 in Chromium: an admin adds a WhatsApp Cloud API connection in the UI (no QR: a test call to the fake
 * Graph API connects it), a signed webhook message becomes a ticket, and the attendant's answer reaches the Graph
 * API; outside the 24-hour window the chat offers an approved template.
 */
const CREDENTIALS = {
  phoneNumberId: '106540352242922',
  businessAccountId: '102290129340398',
  accessToken: 'EAAG-e2e-access-token-9876',
  appSecret: 'e2e-app-secret-4321',
};
const graph = new FakeGraphServer(CREDENTIALS);
/** The port playwright.config.ts points WHATSAPP_GRAPH_URL at: the server's, plus one. */
const GRAPH_PORT = Number(process.env.E2E_PORT ?? 8181) + 1;

test.beforeAll(async () => {
  await graph.start(GRAPH_PORT);
});

test.afterAll(async () => {
  await graph.stop();
});

/** Screenshots when CLOUD_SHOTS names a folder (1280 and 390 px wide). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.CLOUD_SHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${dir}/${name}-1280.png` });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${dir}/${name}-390.png` });
  if (size) await page.setViewportSize(size);
}

test('a Cloud API connection is added in the UI, a signed webhook message becomes a ticket, and the answer reaches the Graph API', async ({ page, request, baseURL }) => {
  const name = `Cloud ${unique()}`;
  await uiLogin(page);
  await page.goto('/connections');
  await page.getByRole('button', { name: 'Add connection' }).click();
  const modal = page.getByRole('dialog', { name: 'Add connection' });
  await modal.getByLabel('Name').fill(name);
  await modal.getByRole('combobox', { name: 'Channel' }).click();
  await page.getByRole('option', { name: 'WhatsApp Cloud API (official)' }).click();
  await expect(modal.getByTestId('cloud-api-fields')).toBeVisible();
  await modal.getByLabel('Phone number ID').fill(CREDENTIALS.phoneNumberId);
  await modal.getByLabel('WhatsApp Business Account ID').fill(CREDENTIALS.businessAccountId);
  await modal.getByLabel('Access token').fill(CREDENTIALS.accessToken);
  await modal.getByLabel('App secret').fill(CREDENTIALS.appSecret);
  await modal.getByLabel('Webhook verify token').fill('e2e-verify');
  await shot(page, 'cloud-01-add');
  await modal.getByRole('button', { name: 'Add' }).click();
  await expect(modal).toBeHidden();

  // No QR code: the test call to the Graph API connects it.
  const row = connectionRow(page, name);
  await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'CONNECTED');
  await expect(row).toContainText('WhatsApp Cloud API (official)');
  expect(graph.requests).toContain(`GET /${CREDENTIALS.phoneNumberId}`);
  const id = await connectionId(request, name);

  // Editing shows the webhook URL to paste in Meta's app, and the secrets masked.
  await row.getByRole('button', { name: `edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit connection' });
  await expect(edit.getByTestId('cloud-webhook-url')).toHaveText(`${new URL(baseURL!).origin}/api/webhooks/whatsapp/${id}`);
  await expect(edit.getByLabel('Access token')).toHaveValue('••••9876');
  await shot(page, 'cloud-02-edit');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Meta calls the webhook (signed with the app secret): the message lands in Queue.
  const customer = `1555${String(Date.now()).slice(-7)}`;
  const contactName = `Cora ${unique()}`;
  const webhook = `${new URL(baseURL!).origin}/api/webhooks/whatsapp/${id}`;
  const forged = await graph.deliver(webhook, graph.messagesPayload(customer, contactName, [{ id: `wamid.forged${Date.now()}`, type: 'text', text: { body: 'forged' } }]), { badSignature: true });
  expect(forged.status).toBe(401);
  const res = await graph.deliver(webhook, graph.messagesPayload(customer, contactName, [{ id: `wamid.e2e${Date.now()}`, type: 'text', text: { body: 'Hello from the Cloud API' } }]));
  expect(res.status).toBe(200);

  await page.goto('/tickets');
  await openTab(page, /Queue/);
  const ticket = ticketRow(page, contactName);
  await expect(ticket).toBeVisible({ timeout: 15_000 });
  await ticket.getByRole('button', { name: 'Accept' }).click();
  await page.waitForURL(/\/tickets\/\d+$/);
  await expect(page.getByTestId('messages-list').getByText('Hello from the Cloud API')).toBeVisible();
  await expect(page.getByText('forged')).toHaveCount(0);

  // The answer goes to Graph's /messages.
  const input = page.getByRole('textbox', { name: /Type a message/ });
  await input.fill('Hi! How can we help?');
  await input.press('Enter');
  await expect.poll(() => graph.sent.filter((m) => m.to === customer).map((m) => (m.body.text as { body: string } | undefined)?.body ?? '')).toContainEqual(expect.stringContaining('Hi! How can we help?'));
  const mine = page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'How can we help?' });
  await expect(mine).toBeVisible();
  await shot(page, 'cloud-03-chat');

  // A "read" status from Meta colours the ticks.
  const sent = graph.sent.filter((m) => m.to === customer).at(-1)!;
  await graph.deliver(webhook, graph.statusesPayload([{ id: sent.id, status: 'read', recipient: customer }]));
  await expect(mine.getByTestId('ack-3')).toBeVisible();

  // Outside the 24-hour window a free-form message is refused and a template is offered.
  graph.closedWindows.add(customer);
  await input.fill('Are you still there?');
  await input.press('Enter');
  const dialog = page.getByTestId('template-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('More than 24 hours have passed');
  await dialog.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'order_update (en_US)' }).click();
  await dialog.getByTestId('template-variable-1').fill(contactName);
  await dialog.getByTestId('template-variable-2').fill('#77');
  await expect(dialog.getByTestId('template-preview')).toContainText(`Hello ${contactName}, your order #77 is on its way.`);
  await shot(page, 'cloud-04-template');
  await dialog.getByTestId('template-send').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'your order #77' })).toBeVisible();
  expect(graph.sent.at(-1)).toMatchObject({ to: customer, type: 'template' });

  // The same screens in Portuguese (screenshots only).
  if (process.env.CLOUD_SHOTS) {
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'pt'));
    await page.reload();
    await page.getByTestId('open-templates').click();
    await page.getByTestId('template-dialog').getByRole('combobox').click();
    await page.getByRole('option', { name: 'order_update (en_US)' }).click();
    await shot(page, 'cloud-05-template-pt');
    await page.keyboard.press('Escape');
    await page.goto('/connections');
    await connectionRow(page, name).getByRole('button', { name: new RegExp(name) }).first().click();
    await shot(page, 'cloud-06-edit-pt');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  }

  await api(request, await apiLogin(request), 'DELETE', `/api/whatsapp/${id}`);
});

test('a bulk send and a scheduled message on a Cloud API connection go out as an approved template', async ({ page, request }) => {
  const admin = await apiLogin(request);
  const name = `Cloud bulk ${unique()}`;
  const conn = await api<{ id: number }>(request, admin, 'POST', '/api/whatsapp', {
    name,
    channel: 'cloud-api',
    cloudPhoneNumberId: CREDENTIALS.phoneNumberId,
    cloudBusinessAccountId: CREDENTIALS.businessAccountId,
    cloudAccessToken: CREDENTIALS.accessToken,
    cloudAppSecret: CREDENTIALS.appSecret,
    cloudVerifyToken: 'e2e-verify-bulk',
  });
  // US numbers: 1 + ten digits (the phone-number rule refuses a short one).
  const base = 15552000000 + (Date.now() % 100_000) * 10;
  const numbers = [String(base), String(base + 1)];

  await uiLogin(page);
  await page.goto('/ZDG');
  await page.getByTestId('campaign-numbers').fill(numbers.join('\n'));
  await page.getByLabel('Connection').click();
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('template-picker')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveCount(0);
  await page.getByTestId('campaign-send').click();
  await expect(page.getByText('Choose an approved template and fill in all its variables.')).toBeVisible();
  await page.getByTestId('template-select').locator('..').click();
  await page.getByRole('option', { name: 'order_update (en_US)' }).click();
  await page.getByTestId('template-variable-1').fill('Ana');
  await page.getByTestId('template-variable-2').fill('#77');
  await expect(page.getByTestId('template-preview')).toContainText('Hello Ana, your order #77 is on its way.');
  await page.getByLabel('Minimum pause (s)').fill('0');
  await page.getByLabel('Maximum pause (s)').fill('0');
  await shot(page, 'cloud-05-bulk-template');
  await page.getByTestId('campaign-send').click();
  await expect(page.getByTestId('campaign-progress')).toHaveText('2 / 2', { timeout: 30_000 });
  const sent = graph.sent.filter((m) => numbers.includes(m.to));
  expect(sent.map((m) => m.type)).toEqual(['template', 'template']);

  // The schedule dialog offers the same picker instead of the text and the file.
  await page.goto('/ZDGAgendamento');
  await page.getByTestId('schedule-new').click();
  const form = page.getByTestId('schedule-form');
  await form.getByLabel('Connection').click();
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await expect(form.getByTestId('template-picker')).toBeVisible();
  await expect(form.getByTestId('schedule-body')).toHaveCount(0);
  await shot(page, 'cloud-06-schedule-template');
  await api(request, admin, 'DELETE', `/api/whatsapp/${conn.id}`);
});

test('the attendant reacts to a message from the chat: the reaction reaches the Graph API, shows in the chat, and is removed again', async ({ page, request, baseURL }) => {
  const admin = await apiLogin(request);
  const name = `Cloud react ${unique()}`;
  const conn = await api<{ id: number }>(request, admin, 'POST', '/api/whatsapp', {
    name,
    channel: 'cloud-api',
    cloudPhoneNumberId: CREDENTIALS.phoneNumberId,
    cloudBusinessAccountId: CREDENTIALS.businessAccountId,
    cloudAccessToken: CREDENTIALS.accessToken,
    cloudAppSecret: CREDENTIALS.appSecret,
    cloudVerifyToken: 'e2e-verify-react',
  });
  const customer = `1555${String(Date.now() + 7).slice(-7)}`;
  const contactName = `Rui ${unique()}`;
  const inboundId = `wamid.react${Date.now()}`;
  const webhook = `${new URL(baseURL!).origin}/api/webhooks/whatsapp/${conn.id}`;
  await expect.poll(async () => (await graph.deliver(webhook, graph.messagesPayload(customer, contactName, [{ id: inboundId, type: 'text', text: { body: 'My parcel arrived!' } }]))).status).toBe(200);

  await uiLogin(page);
  await page.goto('/tickets');
  await openTab(page, /Queue/);
  const ticket = ticketRow(page, contactName);
  await expect(ticket).toBeVisible({ timeout: 15_000 });
  await ticket.getByRole('button', { name: 'Accept' }).click();
  await page.waitForURL(/\/tickets\/\d+$/);

  // The reaction button beside the customer's bubble opens the short choice of emojis.
  const theirs = page.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: 'My parcel arrived!' });
  await theirs.hover();
  await theirs.getByTestId('message-react').click();
  const picker = page.getByTestId('reaction-picker');
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('option')).toHaveCount(6);
  await shot(page, 'cloud-07-reaction-picker');
  await picker.getByRole('option', { name: '❤️' }).click();
  await expect(picker).toBeHidden();
  await expect.poll(() => graph.sent.filter((m) => m.to === customer && m.type === 'reaction').map((m) => m.body.reaction)).toEqual([{ message_id: inboundId, emoji: '❤️' }]);
  // Shown as inbound reactions are: the emoji, replying to the message it reacts to.
  const reaction = page.locator('[data-testid="message"][data-from-me="true"]').filter({ has: page.getByTestId('quoted-message').filter({ hasText: 'My parcel arrived!' }) });
  await expect(reaction.getByTestId('message-body')).toHaveText('❤️');
  // And on the message it reacts to; a reaction itself offers no reaction button.
  await expect(theirs.getByTestId('message-reactions')).toHaveText('❤️');
  await expect(reaction.getByTestId('message-react')).toHaveCount(0);
  const reactionId = await reaction.getAttribute('data-message-id');
  await shot(page, 'cloud-08-reaction-sent');

  // The picker marks the chosen emoji and offers to remove it.
  await theirs.hover();
  await theirs.getByTestId('message-react').click();
  await expect(picker.getByRole('option', { name: '❤️' })).toHaveAttribute('aria-selected', 'true');
  if (process.env.CLOUD_SHOTS) {
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'pt'));
    await page.reload();
    await theirs.hover();
    await theirs.getByTestId('message-react').click();
    await expect(page.getByTestId('reaction-remove')).toContainText('Remover minha reação');
    await shot(page, 'cloud-09-reaction-picker-pt');
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.reload();
    await theirs.hover();
    await theirs.getByTestId('message-react').click();
  }
  await page.getByTestId('reaction-remove').click();
  await expect.poll(() => graph.sent.filter((m) => m.to === customer && m.type === 'reaction').at(-1)?.body.reaction).toEqual({ message_id: inboundId, emoji: '' });
  // Removed: the earlier reaction shows as deleted.
  await expect(page.locator(`[data-testid="message"][data-message-id="${reactionId}"]`).getByTestId('message-deleted')).toBeVisible();
  await expect(theirs.getByTestId('message-reactions')).toHaveCount(0);

  // A refusal from Meta is shown in words: the closed 24-hour window.
  graph.closedWindows.add(customer);
  await theirs.hover();
  await theirs.getByTestId('message-react').click();
  await picker.getByRole('option', { name: '👍' }).click();
  await expect(page.getByText('More than 24 hours have passed')).toBeVisible();
  graph.closedWindows.delete(customer);
  await api(request, admin, 'DELETE', `/api/whatsapp/${conn.id}`);
});
