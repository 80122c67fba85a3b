import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, uiLogin, unique } from './support/api';
import { pendingTicket, toast } from './support/attendant-daily';
import { openTab, outbox, ticketRow, uniqueNumber } from './support/tickets';

/** A `datetime-local` value, `ms` from now, in the browser's time zone (where the page reads it). */
async function localTimeIn(page: Page, ms: number): Promise<string> {
  return page.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }, ms);
}

/**
 * The day of `iso` in the browser's time zone (E2E_TZ, chosen once by playwright.config.ts when the run starts so
 * that the browser's local time is about 13:00 then; the server runs 12 hours away): the page sends that zone, and the
 * server counts the day in it. A time 48 hours ahead falls on the same day there, whichever hour of the run this is.
 */
function viewerDay(iso: string): string {
  const zone = process.env.E2E_TZ;
  if (!zone) throw new Error('E2E_TZ is set by playwright.config.ts');
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

/** Screenshots at 1280 and 390 px, when SCHEDULES_SHOTS names a folder. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.SCHEDULES_SHOTS;
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

/** Issue 14: scheduled messages, from the chat's clock button and from /ZDGAgendamento. */
test.describe('scheduled messages', () => {
  test("schedules the typed message from the chat's clock button and sees it sent into the ticket at its time", async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Agenda ${unique()}` });
    const name = `Agendado ${unique()}`;
    const ticket = await pendingTicket(request, connection.id, name, 'Pode me lembrar amanhã?');
    await uiLogin(page);
    await openTab(page, /Queue/);
    await ticketRow(page, name).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(`**/tickets/${ticket.id}`);

    const text = `Lembrete ${unique()}: sua consulta é amanhã às 10h`;
    await page.getByRole('textbox', { name: /^Type a message/ }).fill(text);
    await page.getByTestId('schedule-message').click();
    const form = page.getByTestId('schedule-form');
    await expect(form.getByTestId('schedule-recipient')).toHaveText(`To: ${name}`);
    await expect(form.getByTestId('schedule-body')).toHaveValue(new RegExp(text));
    // A time in the past is refused in the form.
    await form.getByTestId('schedule-send-at').fill(await localTimeIn(page, -60_000));
    await form.getByRole('button', { name: 'Add' }).click();
    await expect(form).toContainText('Choose a time in the future.');
    await form.getByTestId('schedule-send-at').fill(await localTimeIn(page, 6000));
    await form.getByRole('button', { name: 'Add' }).click();
    await expect(toast(page, 'Message scheduled.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Type a message/ })).toHaveValue('');

    // The contact drawer lists it while it waits...
    await page.getByRole('button', { name: 'contact details' }).click();
    const drawer = page.getByTestId('contact-schedules');
    await expect(drawer.getByTestId('contact-schedule')).toContainText(text);
    await shots(page, 'schedules-chat-drawer');
    // ...and at its time it is sent into the ticket like a typed message, and leaves the list.
    await expect(page.getByTestId('messages-list').getByText(text)).toBeVisible({ timeout: 20_000 });
    await expect(drawer.getByTestId('contact-schedule')).toHaveCount(0);
    await expect(drawer).toContainText('Nothing scheduled for this contact.');
    expect((await outbox(request, connection.id, ticket.number)).filter((m) => m.body.includes(text))).toHaveLength(1);
    await page.getByTestId('contact-drawer-close').click();
    await shots(page, 'schedules-chat');
  });

  test('/ZDGAgendamento: schedule and cancel from the page; DISPARAR sends that day on that instance only', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Disparo ${unique()}` });
    const admin = await apiLogin(request);
    const [a, b] = [uniqueNumber(), uniqueNumber()];
    const inTwoDays = new Date(Date.now() + 48 * 3600_000).toISOString();
    const dayAfter = new Date(Date.now() + 72 * 3600_000).toISOString();
    const thatDay = await api<{ id: number; number: string }>(request, admin, 'POST', '/api/schedules', { whatsappId: connection.id, number: a, body: 'Do dia', sendAt: inTwoDays });
    const nextDay = await api<{ id: number; number: string }>(request, admin, 'POST', '/api/schedules', { whatsappId: connection.id, number: b, body: 'Do dia seguinte', sendAt: dayAfter });

    await uiLogin(page);
    await page.getByRole('link', { name: 'Scheduled messages' }).click();
    await page.waitForURL('**/ZDGAgendamento');
    await expect(page.getByTestId('schedules-table')).toContainText('Do dia seguinte');
    await shots(page, 'schedules-page');

    // Schedule one from the page, to a number, then cancel it (after confirming).
    const body = `Promoção ${unique()}`;
    await page.getByTestId('schedule-new').click();
    const form = page.getByTestId('schedule-form');
    await form.getByRole('button', { name: 'Add' }).click();
    await expect(form).toContainText('Choose a contact or type a number (not both).');
    await form.getByTestId('schedule-number').fill(uniqueNumber());
    await form.getByTestId('schedule-body').fill(body);
    await form.getByTestId('schedule-send-at').fill(await localTimeIn(page, 3 * 3600_000));
    await shots(page, 'schedules-form');
    await form.getByRole('button', { name: 'Add' }).click();
    await expect(toast(page, 'Message scheduled.')).toBeVisible();
    const row = page.getByTestId('schedule-row').filter({ hasText: body });
    await expect(row.getByTestId('schedule-status')).toHaveText('Scheduled');
    await row.getByRole('button', { name: 'Cancel the send' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel the send' }).click();
    await expect(toast(page, 'Scheduled message cancelled.')).toBeVisible();
    await expect(row).toHaveCount(0);

    // DISPARAR: the ID de Disparo is required; the active instance button shows the default connection's ID.
    const fire = page.getByTestId('send-day-form');
    await fire.getByTestId('send-day-date').fill(viewerDay(inTwoDays));
    await fire.getByTestId('send-day-fire').click();
    await expect(fire).toContainText('Required');
    const active = (await api<{ id: number }>(request, admin, 'GET', '/api/whatsappzdg/active')).id;
    await fire.getByTestId('send-day-active').click();
    await expect(fire.getByTestId('send-day-active')).toHaveText(`Active instance: ${active}`);
    await fire.getByTestId('send-day-instance').fill(String(connection.id));
    await fire.getByTestId('send-day-fire').click();
    await page.getByRole('dialog').getByRole('button', { name: 'SEND NOW' }).click();
    await expect(toast(page, '1 message is being sent now.')).toBeVisible();
    await expect.poll(async () => (await api<{ status: string }>(request, admin, 'GET', `/api/schedules/${thatDay.id}`)).status, { timeout: 15_000 }).toBe('sent');
    // The number as stored (normalized: a Brazilian mobile gets its 9).
    expect((await outbox(request, connection.id, thatDay.number)).map((m) => m.body)).toEqual(['Do dia']);
    expect((await api<{ status: string }>(request, admin, 'GET', `/api/schedules/${nextDay.id}`)).status).toBe('scheduled');
    expect(await outbox(request, connection.id, nextDay.number)).toEqual([]);
    // The list follows live: the sent one leaves the Scheduled filter.
    await expect(page.getByTestId('schedule-body-cell').filter({ hasText: /^Do dia$/ })).toHaveCount(0);
    await api(request, admin, 'DELETE', `/api/schedules/${nextDay.id}`);

    // In Portuguese, the spec's words.
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'pt'));
    await page.reload();
    await expect(page.getByTestId('send-day-form')).toContainText('Data de Envio');
    await expect(page.getByTestId('send-day-form')).toContainText('ID de Disparo');
    await expect(page.getByTestId('send-day-fire')).toHaveText('DISPARAR');
    await shots(page, 'schedules-page-pt');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  });
});
