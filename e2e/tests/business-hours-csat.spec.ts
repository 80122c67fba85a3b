import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import { outbox, shot, ticketRow, openTab, uniqueNumber } from './support/tickets';

/**
 * Issue 36 §3 and §5 through the screens: an admin gives a queue its business hours (closed today: a holiday, so this
 * passes at any hour), a contact writing gets the out-of-hours message once and the ticket shows "Out of hours"; with
 * the satisfaction survey on, resolving asks the contact, whose "5" and comment show as stars in the header and, with
 * the comment, in the contact panel, without a new ticket.
 */

async function useLanguage(page: Page, lng: 'en' | 'pt' | 'es'): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
  await page.reload();
}

/** Today in the browser's time zone (the schedule's default zone). */
function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: process.env.E2E_TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

test('business hours: a closed queue answers once and marks the ticket; CSAT asked on resolve, rating and comment shown', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await apiLogin(request);
  // The survey is a desk-wide setting: turned off again whatever happens, so that no later test's resolve asks it.
  try {
    const queueName = `Night desk ${unique()}`;
    await uiLogin(page);

    // The queue dialog's Business hours: on (Mon–Fri 09:00–18:00 in the browser's zone), today closed, a message.
    await page.goto('/queues');
    await page.getByRole('button', { name: 'Add queue' }).click();
    const modal = page.getByRole('dialog', { name: 'Add queue' });
    await modal.getByLabel('Name').fill(queueName);
    await modal.getByTestId('queue-color-input').fill('#1B5E20');
    await expect(modal.getByText('Always open: no out-of-hours message is sent.')).toBeVisible();
    await modal.getByTestId('business-hours-switch').locator('input').check();
    // The browser's own zone, as it names it: E2E_TZ is an Etc/GMT±N name, and at offset 0 Chromium calls Etc/UTC "UTC".
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(new Intl.DateTimeFormat('en', { timeZone: browserZone, timeZoneName: 'longOffset' }).format(0)).toBe(
      new Intl.DateTimeFormat('en', { timeZone: process.env.E2E_TZ, timeZoneName: 'longOffset' }).format(0),
    );
    await expect(modal.getByLabel('Time zone')).toHaveValue(browserZone);
    await expect(modal.getByTestId('interval-1-start')).toHaveValue('09:00');
    await expect(modal.getByTestId('business-hours-day-6')).toContainText('Closed');
    // A night shift past midnight is refused with its translated message, then fixed.
    await modal.getByRole('button', { name: /Add hours on Saturday/ }).click();
    await modal.getByTestId('interval-6-start').fill('22:00');
    await modal.getByTestId('interval-6-end').fill('02:00');
    await modal.getByTestId('holiday-date').fill(today());
    await modal.getByRole('button', { name: 'Add day' }).click();
    await expect(modal.getByTestId('holiday-list')).toContainText(today());
    await modal.getByTestId('out-of-hours-message').fill('We are closed today, {{name}}. We answer tomorrow from 09:00.');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(modal.getByText('Must close after it opens (split a night shift at 24:00)')).toBeVisible();
    await modal.getByTestId('interval-6-end').fill('24:00');
    await modal.getByTestId('business-hours').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'business-hours-dialog-en');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('Queue saved successfully')).toBeVisible();
    const queue = (await api<{ id: number; name: string; businessHours: { holidays: string[]; days: unknown[] } }[]>(request, token, 'GET', '/api/queue')).find((q) => q.name === queueName)!;
    expect(queue.businessHours.holidays).toEqual([today()]);
    expect(queue.businessHours.days).toHaveLength(6);

    // A connection whose only queue is the closed one: a contact writes twice, one notice; the row shows the badge.
    const connection = await connectedSimulator(request, { queueIds: [queue.id] });
    // The connection's default schedule (used before a queue is chosen), in its own dialog.
    await page.goto('/connections');
    await page.getByRole('button', { name: `edit ${connection.name}` }).click();
    const connectionModal = page.getByRole('dialog', { name: 'Edit connection' });
    await connectionModal.getByTestId('business-hours-switch').locator('input').check();
    await connectionModal.getByTestId('out-of-hours-message').fill('We open at 09:00, {{name}}.');
    await connectionModal.getByTestId('business-hours').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'business-hours-connection-en');
    await connectionModal.getByRole('button', { name: 'Save' }).click();
    await expect(connectionModal).toBeHidden();
    const saved = await api<{ businessHours: { days: unknown[] } | null; outOfHoursMessage: string }>(request, token, 'GET', `/api/whatsapp/${connection.id}`);
    expect(saved.businessHours?.days).toHaveLength(5);
    expect(saved.outOfHoursMessage).toBe('We open at 09:00, {{name}}.');
    const number = uniqueNumber();
    const name = `Rosa ${unique()}`;
    await contactWrites(request, connection.id, { from: number, name, body: 'Hello, is anyone there?' });
    await expect.poll(async () => (await outbox(request, connection.id, number)).map((m) => m.body)).toEqual([
      `We are closed today, ${name}. We answer tomorrow from 09:00.`,
    ]);
    await contactWrites(request, connection.id, { from: number, body: 'I will wait' });
    await page.goto('/tickets');
    await openTab(page, /Queue/);
    const row = ticketRow(page, name);
    await expect(row.getByTestId('out-of-hours-badge')).toHaveText('Out of hours');
    await expect(row.getByTestId('last-message')).toContainText('I will wait');
    expect(await outbox(request, connection.id, number)).toHaveLength(1);
    await shot(page, 'business-hours-ticket-row-en');

    // The survey switch and message on the settings page.
    await page.goto('/settings');
    await page.getByTestId('setting-csatEnabled').click();
    await page.getByRole('option', { name: 'Enabled' }).click();
    await expect
      .poll(async () => (await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings')).find((s) => s.key === 'csatEnabled')?.value)
      .toBe('enabled');
    const message = page.getByRole('textbox', { name: 'Survey message' });
    await message.fill('How did we do, {{name}}? Reply with a score from 1 to 5.');
    await page.getByRole('heading', { name: 'Customer satisfaction' }).click();
    await expect
      .poll(async () => (await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings')).find((s) => s.key === 'csatMessage')?.value)
      .toBe('How did we do, {{name}}? Reply with a score from 1 to 5.');
    await page.getByRole('heading', { name: 'Customer satisfaction' }).scrollIntoViewIfNeeded();
    await shot(page, 'csat-settings-en');

    // Accept and resolve: the survey goes; "5" and a comment are kept on that ticket, no new one.
    await page.goto('/tickets');
    await openTab(page, /Queue/);
    await ticketRow(page, name).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const ticketId = Number(page.url().split('/').pop());
    await expect(page.getByTestId('ticket-header').getByTestId('out-of-hours-badge')).toBeVisible();
    await page.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(async () => (await outbox(request, connection.id, number)).at(-1)?.body).toBe(`How did we do, ${name}? Reply with a score from 1 to 5.`);
    await contactWrites(request, connection.id, { from: number, body: '5' });
    await expect.poll(async () => (await api<{ csat: { rating: number } | null }>(request, token, 'GET', `/api/tickets/${ticketId}`)).csat?.rating).toBe(5);
    await contactWrites(request, connection.id, { from: number, body: 'Lovely service, thank you!' });
    await expect
      .poll(async () => (await api<{ csat: { comment: string | null } | null }>(request, token, 'GET', `/api/tickets/${ticketId}`)).csat?.comment)
      .toBe('Lovely service, thank you!');
    const mine = await api<{ tickets: { id: number; contact: { number: string } }[] }>(request, token, 'GET', `/api/tickets?searchParam=${number}&showAll=true`);
    expect(mine.tickets.map((t) => t.id)).toEqual([ticketId]);

    await page.goto(`/tickets/${ticketId}`);
    await expect(page.getByTestId('ticket-header-csat')).toHaveAttribute('data-rating', '5');
    await page.getByRole('button', { name: 'contact details' }).click();
    await expect(page.getByTestId('contact-csat')).toContainText('Rated 5 of 5');
    await expect(page.getByTestId('contact-csat-rating-comment')).toContainText('Lovely service, thank you!');
    await shot(page, 'csat-ticket-en');

    // Portuguese, and at 390 px.
    await useLanguage(page, 'pt');
    await expect(page.getByTestId('ticket-header').getByTestId('out-of-hours-badge')).toHaveText('Fora do horário');
    await page.getByRole('button', { name: 'dados do contato' }).click();
    await expect(page.getByTestId('contact-csat')).toContainText('Nota 5 de 5');
    await shot(page, 'csat-ticket-pt');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/queues');
    await page.getByTestId('queue-row').filter({ hasText: queueName }).getByRole('button', { name: `editar ${queueName}` }).click();
    const pt = page.getByRole('dialog', { name: 'Editar fila' });
    await expect(pt.getByText('Horário de atendimento')).toBeVisible();
    await expect(pt.getByTestId('holiday-list')).toContainText(today());
    await pt.getByTestId('business-hours').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'business-hours-dialog-pt-390');
    await pt.getByRole('button', { name: /Cancelar/ }).click();
    await page.goto('/tickets');
    await openTab(page, /Resolvidos/);
    await expect(ticketRow(page, name).getByTestId('out-of-hours-badge')).toBeVisible();
    await shot(page, 'business-hours-ticket-row-pt-390');
  } finally {
    await api(request, token, 'PUT', '/api/settings/csatEnabled', { value: 'disabled' });
  }
});
