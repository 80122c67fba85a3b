import { chromium, expect, test } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import {
  createQueue,
  createQuickAnswer,
  expectTicketStatus,
  openTab,
  outbox,
  shot,
  simulatorAck,
  ticketRow,
  TINY_PNG,
  tinyWav,
  uniqueNumber,
} from './support/tickets';

test.describe('the attendant screen', () => {
  test('a contact writes, the attendant handles the ticket live from queue to resolved', async ({ page, request }) => {
    const connection = await connectedSimulator(request);
    const queue = await createQueue(request);
    const number = uniqueNumber();
    const name = `Maria ${unique()}`;

    await uiLogin(page);
    await expect(page.getByRole('tab', { name: /Working on/ })).toBeVisible();
    await shot(page, '01-empty');

    // A contact writes: the ticket appears live in Queue with an unread badge and the bell counts it.
    await contactWrites(request, connection.id, { from: number, name, body: 'Hello, I need *help* with ~my~ order' });
    await openTab(page, /Queue/);
    const row = ticketRow(page, name);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('unread-badge')).toContainText('1');
    await expect(row.getByTestId('last-message').locator('strong')).toHaveText('help');
    await expect(row.getByTestId('last-message').locator('s')).toHaveText('my');
    await expect(page.getByTestId('notifications-count').locator('.MuiBadge-badge')).not.toHaveText('0');
    await expect(page.getByTestId('notifications-count').locator('.MuiBadge-badge')).toBeVisible();
    await shot(page, '02-queue-live');

    // Accept → Working on, chat open.
    await row.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const ticketId = Number(page.url().split('/').pop());
    await expect(page.getByTestId('ticket-title')).toHaveText(`${name} #${ticketId}`);
    await expect(page.getByText(/Assigned to:/)).toBeVisible();
    await openTab(page, /Working on/);
    await expect(ticketRow(page, name)).toBeVisible();
    await expect(page.getByTestId('messages-list').getByText('Hello, I need')).toBeVisible();

    // The reply reaches the simulator's outbox, signed.
    const input = page.getByRole('textbox', { name: /Type a message/ });
    await input.fill('We are on it');
    await input.press('Enter');
    await expect.poll(async () => (await outbox(request, connection.id, number)).map((o) => o.body)).toContainEqual(expect.stringContaining('We are on it'));
    const sent = (await outbox(request, connection.id, number)).find((o) => o.body.includes('We are on it'));
    expect(sent?.body).toMatch(/^\*.+:\*\nWe are on it$/);
    const mine = page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'We are on it' });
    await expect(mine).toBeVisible();

    // Ticks follow the simulator's acks.
    await simulatorAck(request, connection.id, sent!.id, 3);
    await expect(mine.getByTestId('ack-3')).toBeVisible();
    await shot(page, '03-chat-acked');

    // '/' lists quick answers and inserts the chosen one.
    const shortcut = await createQuickAnswer(request, 'Thank you for waiting, we will answer soon.');
    await input.fill(`/${shortcut}`);
    await page.getByTestId('quick-answers').getByText(`/${shortcut}`).click();
    await expect(input).toHaveValue('Thank you for waiting, we will answer soon.');
    await shot(page, '04-quick-answer');
    await input.press('Enter');
    await expect(page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'Thank you for waiting' })).toBeVisible();

    // Empty (trimmed) text is not sent.
    const before = (await outbox(request, connection.id, number)).length;
    await input.fill('   ');
    await input.press('Enter');
    await page.waitForTimeout(300);
    expect((await outbox(request, connection.id, number)).length).toBe(before);
    await input.fill('');

    // An image and an audio from the contact render.
    await contactWrites(request, connection.id, { from: number, name, body: '', mediaType: 'image', mediaUrl: TINY_PNG });
    await contactWrites(request, connection.id, { from: number, name, body: '', mediaType: 'audio', mediaUrl: tinyWav() });
    const image = page.getByTestId('messages-list').getByRole('img', { name: 'image' }).last();
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const audio = page.getByTestId('messages-list').locator('audio').last();
    await expect(audio).toBeAttached();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'playback speed' }).last().click();
    await expect(page.getByRole('button', { name: 'playback speed' }).last()).toHaveText('1.5x');
    await shot(page, '05-media');

    // Delete one of my messages.
    await mine.hover();
    await mine.getByRole('button', { name: 'message options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect(page.getByText('This action cannot be reverted.')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.locator(`[data-message-id]`).filter({ has: page.getByTestId('message-deleted') })).toHaveCount(1);
    await expect.poll(async () => (await outbox(request, connection.id, number)).find((o) => o.id === sent!.id)?.isDeleted).toBe(true);
    await shot(page, '06-deleted');

    // Transfer to a queue: back to pending.
    await page.getByRole('button', { name: 'Transfer' }).click();
    await page.getByRole('dialog').getByRole('combobox', { name: 'Transfer to' }).click();
    await page.getByRole('option', { name: 'Nobody: wait in a queue' }).click();
    await page.getByRole('dialog').getByLabel('Queue').click();
    await page.getByRole('option', { name: queue.name }).click();
    await shot(page, '07-transfer');
    await page.getByRole('dialog').getByRole('button', { name: 'Transfer' }).click();
    await page.waitForURL(/\/tickets$/);
    await expectTicketStatus(request, ticketId, 'pending');
    await openTab(page, /Queue/);
    await expect(ticketRow(page, name)).toBeVisible();
    await expect(ticketRow(page, name).getByTestId('queue-bar')).toHaveAttribute('aria-label', queue.name);

    // Accept again, then resolve → Resolved tab.
    await ticketRow(page, name).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.waitForURL(/\/tickets$/);
    await expectTicketStatus(request, ticketId, 'closed');
    await openTab(page, /Resolved/);
    const closedRow = ticketRow(page, name);
    await expect(closedRow).toBeVisible();
    await expect(closedRow.getByText('closed', { exact: true })).toBeVisible();
    await shot(page, '08-resolved');

    // Reopen.
    await closedRow.click();
    await page.getByRole('button', { name: 'Reopen' }).click();
    await expectTicketStatus(request, ticketId, 'open');
    await expect(page.getByRole('button', { name: 'Resolve' })).toBeVisible();
    await openTab(page, /Inbox/);
    await openTab(page, /Working on/);
    await expect(ticketRow(page, name)).toBeVisible();

    // The contact drawer.
    await page.getByRole('button', { name: 'contact details' }).click();
    await expect(page.getByTestId('contact-drawer').getByRole('link', { name: number })).toHaveAttribute('href', `tel:+${number}`);
    await shot(page, '09-contact-drawer');
    // On a wide screen it is a side panel beside the chat (issue 10): its close button hides it.
    await page.getByTestId('contact-drawer-close').click();
    await expect(page.getByTestId('contact-drawer')).toBeHidden();

    // Search across tickets and messages; clearing it returns to the open tab.
    await openTab(page, /Search/);
    const search = page.getByPlaceholder('Search tickets and messages');
    await search.fill('I need');
    await expect(ticketRow(page, name)).toBeVisible();
    await search.fill('');
    await expect(page.getByRole('tab', { name: /Inbox/ })).toHaveAttribute('aria-selected', 'true');

    // Deleted live while open: told so, back to /tickets.
    await ticketRow(page, name).click();
    await page.waitForURL(`**/tickets/${ticketId}`);
    const token = await apiLogin(request);
    await api(request, token, 'DELETE', `/api/tickets/${ticketId}`);
    await expect(page.getByText('The ticket you were on has been deleted.')).toBeVisible();
    await page.waitForURL(/\/tickets$/);
  });

  test('phone width: one pane at a time with a back button', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const connection = await connectedSimulator(request);
    const number = uniqueNumber();
    const name = `Phone ${unique()}`;
    await uiLogin(page);
    await contactWrites(request, connection.id, { from: number, name, body: 'Hi from a phone' });
    await openTab(page, /Queue/);
    const row = ticketRow(page, name);
    await expect(row).toBeVisible();
    await expect(page.getByTestId('no-ticket-selected')).toHaveCount(0);
    await shot(page, '10-phone-list');
    await row.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await expect(page.getByTestId('tickets-list')).toHaveCount(0);
    await expect(page.getByTestId('messages-list').getByText('Hi from a phone')).toBeVisible();
    const input = page.getByRole('textbox', { name: /Type a message/ });
    await input.fill('Reply from phone');
    await input.press('Enter');
    await expect.poll(async () => (await outbox(request, connection.id, number)).map((o) => o.body)).toContainEqual(expect.stringContaining('Reply from phone'));
    await shot(page, '11-phone-chat');
    await page.getByRole('button', { name: 'back' }).click();
    await page.waitForURL(/\/tickets$/);
    await expect(page.getByTestId('tickets-list')).toBeVisible();
  });

  test('speaks Portuguese: tabs, row, header and chat', async ({ page, request }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    const connection = await connectedSimulator(request);
    const number = uniqueNumber();
    const name = `João ${unique()}`;
    await contactWrites(request, connection.id, { from: number, name, body: 'Olá, *bom dia*!' });
    await contactWrites(request, connection.id, { from: number, name, body: '-23.5505,-46.6333|Avenida Paulista, 1000', mediaType: 'location' });
    const token = await apiLogin(request);
    const { tickets } = await api<{ tickets: { id: number }[] }>(request, token, 'GET', `/api/tickets?searchParam=${number}&showAll=true`);
    const ticketId = tickets[0].id;
    await api(request, token, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });
    await api(request, token, 'POST', `/api/messages/${ticketId}`, { body: 'Bom dia! Como posso ajudar?' });

    await uiLogin(page);
    await expect(page.getByRole('tab', { name: /Atendendo/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: /Aguardando/ })).toBeVisible();
    await expect(page.getByTestId('no-ticket-selected')).toContainText('Selecione um ticket');
    await shot(page, 'pt-01-list');
    await ticketRow(page, name).click();
    await expect(page.getByRole('button', { name: 'Resolver' })).toBeVisible();
    await expect(page.getByText(/Atribuído a:/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Abrir no mapa' })).toHaveAttribute('href', /-23\.5505%2C-46\.6333/);
    await expect(page.getByText('Avenida Paulista, 1000')).toBeVisible();
    await shot(page, 'pt-02-chat');
    await page.getByRole('button', { name: 'importar e exportar' }).click();
    // The panel's tools: WPP id, import (the history import), CSV and EMAIL.
    await expect(page.getByTestId('import-export-panel').getByRole('button')).toHaveText(['WPP id', 'Importar', 'CSV', 'EMAIL']);
    await shot(page, 'pt-03-tools');
    await page.getByRole('button', { name: 'Transferir' }).click();
    await expect(page.getByRole('dialog').getByText('Transferir ticket')).toBeVisible();
    await shot(page, 'pt-04-transfer');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'pt-05-phone-chat');
    await page.getByRole('button', { name: 'voltar' }).click();
    await expect(page.getByTestId('tickets-list')).toBeVisible();
    await shot(page, 'pt-06-phone-list');
    await page.setViewportSize({ width: 1280, height: 720 });

    // Protocolo: resolves, shows the number in the app's dialog (no browser alert).
    await ticketRow(page, name).click();
    await page.getByRole('button', { name: 'mais opções' }).click();
    await page.getByRole('menuitem', { name: 'Protocolo' }).click();
    const protocolDialog = page.getByRole('dialog', { name: 'Ticket resolvido com protocolo' });
    await expect(protocolDialog).toContainText(/Número do protocolo: \d+/);
    await expectTicketStatus(request, ticketId, 'closed');
    await protocolDialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(/\/tickets$/);

    // Close all, after a confirmation: the result in a dialog, and the lists refresh empty.
    await page.getByRole('button', { name: 'Fechar todos', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: /Confirmar/i }).click();
    await expect(page.getByRole('dialog', { name: 'Tickets fechados' })).toContainText(/fechado/);
    await page.getByRole('dialog', { name: 'Tickets fechados' }).getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('tab', { name: /Atendendo/ })).toContainText('0');
  });

  test('New starts a ticket with a contact created from the typed name', async ({ page, request }) => {
    await connectedSimulator(request);
    const number = uniqueNumber();
    await uiLogin(page);
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByLabel('Search contact').fill(number);
    await page.getByRole('option', { name: `Add contact "${number}"` }).click();
    await page.getByLabel('Name').fill('Carla Nova');
    await shot(page, '12-new-ticket');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await expect(page.getByTestId('ticket-title')).toContainText('Carla Nova');
    await expect(page.getByRole('button', { name: 'Resolve' })).toBeVisible();
    const token = await apiLogin(request);
    const created = await api<{ whatsappId: number }>(request, token, 'GET', `/api/tickets/${page.url().split('/').pop()}`);

    // An attachment: preview, caption, sent as media.
    await page.getByTestId('attach-input').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from(TINY_PNG.split(',')[1], 'base64'),
    });
    await expect(page.getByTestId('attachments-preview').getByRole('img', { name: 'photo.png' })).toBeVisible();
    await page.getByLabel('Caption').fill('Here is the photo');
    await shot(page, '13-attachment-preview');
    await page.getByRole('button', { name: 'send' }).click();
    await expect.poll(async () => (await outbox(request, created.whatsappId, number)).map((o) => `${o.mediaType}:${o.body}`)).toContainEqual(
      expect.stringMatching(/^image:.*Here is the photo$/s),
    );
    await expect(page.locator('[data-testid="message"][data-from-me="true"]').getByRole('img', { name: 'image' })).toBeVisible();
  });
});

test('audio recording: an mm:ss timer, then an MP3 is sent', async ({ request, baseURL }) => {
  // A browser of its own, with a fake microphone.
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  try {
    const context = await browser.newContext({ baseURL, permissions: ['microphone'], locale: 'en-US' });
    const page = await context.newPage();
    const connection = await connectedSimulator(request);
    const number = uniqueNumber();
    const name = `Rec ${unique()}`;
    await contactWrites(request, connection.id, { from: number, name, body: 'Send me an audio' });
    await uiLogin(page);
    await openTab(page, /Queue/);
    await ticketRow(page, name).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    await page.getByRole('button', { name: 'record audio' }).click();
    await expect(page.getByTestId('recording-timer')).toHaveText('00:02', { timeout: 5000 });
    await shot(page, '14-recording');
    await page.getByRole('button', { name: 'send recording' }).click();
    await expect
      .poll(async () => (await outbox(request, connection.id, number)).map((o) => o.mediaType), { timeout: 15_000 })
      .toContainEqual('audio');
    await expect(page.locator('[data-testid="message"][data-from-me="true"] audio')).toBeAttached();
  } finally {
    await browser.close();
  }
});
