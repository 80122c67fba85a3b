import { expect, test } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin, unique } from './support/api';
import { distanceFromBottom, expectAtBottom, pendingTicket, pngOfSize, ticketState, toast } from './support/attendant-daily';
import { openTab, shot, ticketRow } from './support/tickets';

/** Issue 10, items 8, 9, 10, 11, 12, 14, 15 and 17: the attendant's day. */
test.describe("the attendant's day", () => {
  test('View peeks without reading or moving; Accept follows the ticket to Working on, with a toast at the bottom', async ({ page, request }) => {
    const connection = await connectedSimulator(request);
    const first = `Peek ${unique()}`;
    const second = `Later ${unique()}`;
    const peeked = await pendingTicket(request, connection.id, first, 'First question');
    await pendingTicket(request, connection.id, second, 'Second question');
    const before = await ticketState(request, peeked.id);
    expect(before.unreadMessages).toBe(1);

    await uiLogin(page);
    await openTab(page, /Queue/);
    const row = ticketRow(page, first);
    await expect(row.getByTestId('unread-badge')).toHaveText('1');
    // Newest first: the second contact's ticket is above.
    const order = async () => page.getByTestId('tickets-list').locator('[data-testid^="ticket-row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    const orderBefore = (await order()).filter((n) => n === first || n === second);
    expect(orderBefore).toEqual([second, first]);

    // View: the chat opens, the ticket stays unread, pending, unchanged and in its place.
    await row.getByRole('button', { name: 'View' }).click();
    await page.waitForURL(`**/tickets/${peeked.id}`);
    await expect(page.getByTestId('messages-list').getByText('First question')).toBeVisible();
    await page.waitForTimeout(800);
    const after = await ticketState(request, peeked.id);
    expect(after).toMatchObject({ status: 'pending', unreadMessages: 1, updatedAt: before.updatedAt });
    await expect(page.getByRole('tab', { name: /Queue/ })).toHaveAttribute('aria-selected', 'true');
    await expect(ticketRow(page, first).getByTestId('unread-badge')).toHaveText('1');
    expect((await order()).filter((n) => n === first || n === second)).toEqual(orderBefore);

    // The row's time is the last message's, not the ticket's last change.
    expect(after.lastMessageAt).toBeTruthy();
    // The time when today, else the day, as the English interface writes them (issue 33 item 16: 2:05 PM, 11/12/2026).
    const expectedTime = await page.evaluate((iso) => {
      const d = new Date(iso);
      return d.toDateString() === new Date().toDateString()
        ? new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(d)
        : new Intl.DateTimeFormat('en-US', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
    }, after.lastMessageAt!);
    await expect(ticketRow(page, first).getByTestId('last-message-time')).toHaveText(expectedTime);

    // Accept from the row: the list follows the ticket to Working on, where it is selected.
    await ticketRow(page, first).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(`**/tickets/${peeked.id}`);
    await expect(page.getByRole('tab', { name: /Working on/ })).toHaveAttribute('aria-selected', 'true');
    await expect(ticketRow(page, first)).toHaveClass(/Mui-selected/);
    const accepted = toast(page, 'Ticket accepted');
    await expectAtBottom(page, accepted);
    await shot(page, 'daily-01-accepted');
    // Accepting changed the ticket, not its last message: the row keeps the message's time.
    const taken = await ticketState(request, peeked.id);
    expect(taken.lastMessageAt).toBe(after.lastMessageAt);
    expect(taken.unreadMessages).toBe(0);
  });

  test('header actions confirm with a toast; Protocol and Close all use the app dialogs; Close all is not on Resolved', async ({ page, request }) => {
    const connection = await connectedSimulator(request);
    const name = `Actions ${unique()}`;
    const ticket = await pendingTicket(request, connection.id, name);
    await uiLogin(page);
    await page.goto(`/tickets/${ticket.id}`);

    // Accept from the header (the chat of a waiting ticket): followed to Working on.
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(toast(page, 'Ticket accepted')).toBeVisible();
    await expect(page.getByRole('tab', { name: /Working on/ })).toHaveAttribute('aria-selected', 'true');
    await expect(ticketRow(page, name)).toHaveClass(/Mui-selected/);

    // The toast never covers the header's buttons: Return is clickable at once.
    await page.getByRole('button', { name: 'Return' }).click();
    await page.waitForURL(/\/tickets$/);
    await expectAtBottom(page, toast(page, 'Ticket returned to the queue'));

    await openTab(page, /Queue/);
    await ticketRow(page, name).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(`**/tickets/${ticket.id}`);
    await page.getByRole('button', { name: 'Resolve' }).click();
    await expectAtBottom(page, toast(page, 'Ticket resolved'));
    await page.waitForURL(/\/tickets$/);

    // On Resolved there is no Close all; Private and Groups are in English.
    await openTab(page, /Resolved/);
    await expect(page.getByRole('tab', { name: 'Private', exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Groups', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close all' })).toHaveCount(0);
    await ticketRow(page, name).click();
    await page.getByRole('button', { name: 'Reopen' }).click();
    await expectAtBottom(page, toast(page, 'Ticket reopened'));
    await expect(page.getByRole('tab', { name: /Inbox/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: /Working on/ })).toHaveAttribute('aria-selected', 'true');
    await expect(ticketRow(page, name)).toHaveClass(/Mui-selected/);

    // Protocol: the number in the app's dialog, not a browser alert.
    let browserAlerts = 0;
    page.on('dialog', (d) => {
      browserAlerts += 1;
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'more options' }).click();
    await page.getByRole('menuitem', { name: 'Protocol' }).click();
    const protocol = page.getByRole('dialog', { name: 'Ticket resolved with a protocol' });
    await expect(protocol).toContainText(/Protocol number: \d+/);
    await shot(page, 'daily-02-protocol-dialog');
    await protocol.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(/\/tickets$/);

    // Close all: a clear label, a confirmation, then the result in a dialog; the lists refresh by themselves.
    await pendingTicket(request, connection.id, `Closing ${unique()}`);
    await page.getByRole('button', { name: 'Close all' }).click();
    // The confirmation counts what it closes: the lists' Working on and Queue of this tab.
    await page.getByRole('dialog', { name: /^Close \d+ tickets?\?$/ }).getByRole('button', { name: 'Confirm' }).click();
    const result = page.getByRole('dialog', { name: 'Tickets closed' });
    await expect(result).toContainText(/\d+ ticket\(s\) closed\./);
    await shot(page, 'daily-03-closed-all');
    await result.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('tab', { name: /Queue/ })).toContainText('0');
    expect(browserAlerts).toBe(0);
  });

  test('a chat whose connection is down says so, live', async ({ page, request }) => {
    const connection = await connectedSimulator(request);
    const name = `Down ${unique()}`;
    const ticket = await pendingTicket(request, connection.id, name);
    const token = await apiLogin(request);
    await api(request, token, 'PUT', `/api/tickets/${ticket.id}`, { status: 'open' });
    await uiLogin(page);
    await page.goto(`/tickets/${ticket.id}`);
    await expect(page.getByTestId('messages-list').getByText('Hello there')).toBeVisible();
    await expect(page.getByTestId('chat-connection-down')).toHaveCount(0);

    await api(request, token, 'DELETE', `/api/whatsappsession/${connection.id}`);
    const banner = page.getByTestId('chat-connection-down');
    await expect(banner).toContainText("This conversation's connection");
    await expect(banner).toContainText("messages can't be sent until it reconnects");
    await shot(page, 'daily-04-connection-down');

    // Reconnected (new QR, scanned): the banner goes by itself.
    await api(request, token, 'PUT', `/api/whatsappsession/${connection.id}`);
    await expect.poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/whatsapp/${connection.id}`)).status).toBe('qrcode');
    await api(request, token, 'POST', `/api/simulator/${connection.id}/scan`);
    await expect(banner).toHaveCount(0);
  });

  test('disconnecting a connection asks first', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Ask ${unique()}` });
    await uiLogin(page);
    await page.goto('/connections');
    const row = page.getByTestId('connection-row').filter({ hasText: connection.name });
    await row.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog', { name: `Disconnect ${connection.name}?` });
    await expect(confirm).toBeVisible();
    await shot(page, 'daily-05-disconnect-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'CONNECTED');
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'DISCONNECTED');
    await api(request, await apiLogin(request), 'DELETE', `/api/whatsapp/${connection.id}`);
  });

  test('after sending a photo the chat ends at the bottom; only the reader scrolling up unpins it, and new messages then show a button', async ({ page, request }) => {
    const connection = await connectedSimulator(request);
    const name = `Scroll ${unique()}`;
    const ticket = await pendingTicket(request, connection.id, name, 'Message 0');
    const token = await apiLogin(request);
    await api(request, token, 'PUT', `/api/tickets/${ticket.id}`, { status: 'open' });
    for (let i = 1; i <= 14; i += 1) await contactWrites(request, connection.id, { from: ticket.number, name, body: `Message ${i}\nwith a second line` });
    await uiLogin(page);
    await page.goto(`/tickets/${ticket.id}`);
    await expect(page.getByTestId('messages-list').getByText('Message 14')).toBeVisible();

    // A photo-sized image: once it has its size, the conversation still ends at the bottom.
    await page.getByTestId('attach-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await pngOfSize(page, 600, 800) });
    await page.getByRole('button', { name: 'send' }).click();
    const sent = page.locator('[data-testid="message"][data-from-me="true"]').getByRole('img', { name: 'image' }).last();
    await expect(sent).toBeVisible();
    await expect.poll(() => sent.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(4);
    await shot(page, 'daily-06-photo-at-bottom');

    // The view moved up by the page, not by the reader (as when the browser lowers it while a row shrinks, or the
    // list retargets its end): still pinned, a new message shows at the bottom.
    await page.getByTestId('messages-list').evaluate((el) => {
      el.scrollTop -= 300;
    });
    await page.waitForTimeout(300);
    await contactWrites(request, connection.id, { from: ticket.number, name, body: 'Still following?' });
    await expect(page.getByTestId('messages-list').getByText('Still following?')).toBeInViewport();
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(4);
    await expect(page.getByTestId('new-messages-button')).toHaveCount(0);

    // Scrolled up by the reader (the wheel), a new message does not move the view: a button says so, and takes you down.
    await page.getByTestId('messages-list').hover();
    await page.mouse.wheel(0, -5000);
    await expect.poll(() => page.getByTestId('messages-list').evaluate((el) => el.scrollTop)).toBeLessThan(50);
    await page.waitForTimeout(300);
    await expect(page.getByTestId('new-messages-button')).toHaveCount(0);
    await contactWrites(request, connection.id, { from: ticket.number, name, body: 'Are you there?' });
    const button = page.getByTestId('new-messages-button');
    await expect(button).toBeVisible();
    await expect(button).toContainText('New messages (1)');
    expect(await distanceFromBottom(page)).toBeGreaterThan(200);
    await shot(page, 'daily-07-new-messages-button');
    await button.click();
    await expect(page.getByTestId('messages-list').getByText('Are you there?')).toBeInViewport();
    await expect(button).toHaveCount(0);
  });

  test('keyboard: menus take focus and close on Esc, Reply focuses the input, Esc cancels; quick answers move with the arrows', async ({ page, request }) => {
    const connection = await connectedSimulator(request);
    const name = `Keys ${unique()}`;
    const ticket = await pendingTicket(request, connection.id, name, 'Please answer me');
    const token = await apiLogin(request);
    await api(request, token, 'PUT', `/api/tickets/${ticket.id}`, { status: 'open' });
    const prefix = `kb${unique()}`;
    await api(request, token, 'POST', '/api/quickAnswers', { shortcut: `${prefix}a`, message: 'First canned answer' });
    await api(request, token, 'POST', '/api/quickAnswers', { shortcut: `${prefix}b`, message: 'Second canned answer' });
    await uiLogin(page);
    await page.goto(`/tickets/${ticket.id}`);

    // The message's menu: reached with the keyboard, it takes focus and closes on Esc.
    const message = page.locator('[data-testid="message"]').filter({ hasText: 'Please answer me' });
    const options = message.getByRole('button', { name: 'message options' });
    await options.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Reply' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);

    // Reply: the input takes focus; Esc cancels the reply.
    await options.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const input = page.getByRole('textbox', { name: /Type a message/ });
    await expect(page.getByTestId('replying-to')).toBeVisible();
    await expect(input).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('replying-to')).toHaveCount(0);

    // '/' quick answers: arrows move the highlight, Enter picks it, Esc closes the list.
    await input.pressSequentially(`/${prefix}`);
    const list = page.getByTestId('quick-answers');
    await expect(list.getByRole('option')).toHaveCount(2);
    await expect(list.getByRole('option').nth(0)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(list.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(list.getByRole('option').nth(1)).toHaveClass(/Mui-selected/);
    await shot(page, 'daily-08-quick-answers-keyboard');
    await input.focus(); // shot() may have clicked a toast's close button
    await page.keyboard.press('Enter');
    await expect(input).toHaveValue('Second canned answer');
    await input.fill(`/${prefix}`);
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(input).toHaveValue(`/${prefix}`);
  });

  test('empty states say what to do next; counters wait with a placeholder; the tab title counts unread tickets; a favicon', async ({ page, request }) => {
    // No connection yet (the list of connections answers empty): a button to add one.
    await uiLogin(page);
    await page.route('**/api/whatsapp', (route) => (route.request().method() === 'GET' ? route.fulfill({ json: [] }) : route.fallback()));
    await page.route('**/api/tickets?*', (route) => route.fulfill({ json: { tickets: [], hasMore: false, count: 0 } }));
    await page.reload();
    const empty = page.getByTestId('tickets-empty');
    await expect(empty).toContainText('No WhatsApp connection yet');
    await shot(page, 'daily-09-no-connection');
    await empty.getByRole('button', { name: 'Add a connection' }).click();
    await page.waitForURL('**/connections');
    await page.unroute('**/api/whatsapp');
    await page.unroute('**/api/tickets?*');

    // An attendant with nothing in progress while the queue waits: a button to the Queue.
    const connection = await connectedSimulator(request);
    const user = await createUser(request);
    const name = `Waiting ${unique()}`;
    await pendingTicket(request, connection.id, name);
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await uiLogin(page, user.email, user.password);
    const waiting = page.getByTestId('tickets-empty');
    await expect(waiting).toContainText(/waiting in the Queue/);
    await shot(page, 'daily-10-queue-waiting');
    await waiting.getByRole('button', { name: 'Go to the Queue' }).click();
    await expect(page.getByRole('tab', { name: /Queue/ })).toHaveAttribute('aria-selected', 'true');
    await expect(ticketRow(page, name)).toBeVisible();

    // The tab's title counts the tickets with unread messages.
    await expect(page).toHaveTitle(/^\(\d+\) WaDesk$/);
    const count = Number((await page.title()).match(/\((\d+)\)/)![1]);
    await contactWrites(request, connection.id, { from: `55119${String(Date.now()).slice(-7)}7`, name: `Another ${unique()}`, body: 'Hi!' });
    await expect(page).toHaveTitle(`(${count + 1}) WaDesk`);

    // The dashboard's counters show a placeholder while loading, never a false 0.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/dashboard', async (route) => {
      await held;
      await route.fallback();
    });
    await page.goto('/');
    await expect(page.getByTestId('counter-open').locator('.MuiSkeleton-root')).toBeVisible();
    await expect(page.getByTestId('counter-open-value')).toHaveCount(0);
    release();
    await expect(page.getByTestId('counter-open-value')).toHaveText(/^\d+$/);

    // A favicon, served as SVG.
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
    const icon = await request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
  });

  test('at phone width, in Portuguese then Spanish: toasts leave the header free, the taken ticket is followed, the chat says its connection is down', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('lang-set')) {
        localStorage.setItem('i18nextLng', 'pt');
        sessionStorage.setItem('lang-set', '1');
      }
    });
    const connection = await connectedSimulator(request);
    const name = `Fone ${unique()}`;
    const ticket = await pendingTicket(request, connection.id, name, 'Olá, preciso de ajuda');
    await uiLogin(page);
    await openTab(page, /Aguardando/);
    await ticketRow(page, name).getByRole('button', { name: 'Aceitar' }).click();
    await page.waitForURL(`**/tickets/${ticket.id}`);
    const accepted = toast(page, 'Ticket aceito');
    await expectAtBottom(page, accepted);
    // The header's buttons stay free: the toast is below the chat header.
    const header = await page.getByRole('button', { name: 'Resolver' }).boundingBox();
    expect((await accepted.boundingBox())!.y).toBeGreaterThan(header!.y + header!.height);
    await page.screenshot({ path: `${process.env.TICKETS_SHOTS ?? '/tmp'}/daily-12-pt-phone-toast.png` }).catch(() => undefined);

    await page.getByRole('button', { name: 'voltar' }).click();
    await expect(page.getByRole('tab', { name: /Atendendo/ })).toHaveAttribute('aria-selected', 'true');
    await expect(ticketRow(page, name)).toBeVisible();
    await shot(page, 'daily-13-pt-phone-working-on');

    const token = await apiLogin(request);
    await api(request, token, 'DELETE', `/api/whatsappsession/${connection.id}`);
    await ticketRow(page, name).click();
    await expect(page.getByTestId('chat-connection-down')).toContainText('A conexão desta conversa');
    await shot(page, 'daily-14-pt-phone-connection-down');

    await page.evaluate(() => localStorage.setItem('i18nextLng', 'es'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByTestId('chat-connection-down')).toContainText('La conexión de esta conversación');
    await shot(page, 'daily-15-es-phone-connection-down');
    await page.getByRole('button', { name: 'más opciones' }).click();
    await expect(page.getByRole('menuitem', { name: 'Protocolo' })).toBeVisible();
    await expect(page.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await page.getByRole('button', { name: 'volver' }).click();
    await expect(page.getByRole('button', { name: 'Cerrar todos', exact: true })).toBeVisible();
    await shot(page, 'daily-16-es-phone-list');
    await api(request, token, 'DELETE', `/api/whatsapp/${connection.id}`);
  });

  test('speaks the chosen language: lang attribute, Close all, Protocol, Private/Groups', async ({ page }) => {
    await uiLogin(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('button', { name: 'Close all' })).toBeVisible();
    for (const [lng, lang, closeAll, priv, groups] of [
      ['pt', 'pt-BR', 'Fechar todos', 'Privados', 'Grupos'],
      ['es', 'es', 'Cerrar todos', 'Privados', 'Grupos'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('button', { name: closeAll, exact: true })).toBeVisible();
      await shot(page, `daily-11-${lng}-list`);
      await page.getByRole('tab').nth(2).click();
      await expect(page.getByRole('tab', { name: priv, exact: true })).toBeVisible();
      await expect(page.getByRole('tab', { name: groups, exact: true }).last()).toBeVisible();
      await expect(page.getByRole('button', { name: closeAll, exact: true })).toHaveCount(0);
    }
  });
});
