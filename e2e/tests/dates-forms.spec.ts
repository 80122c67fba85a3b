import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, uiLogin, unique } from './support/api';
import { pendingTicket } from './support/attendant-daily';
import { openTab, shot, ticketRow, uniqueNumber } from './support/tickets';

type Language = 'en' | 'pt';

const WORDS = {
  en: { queue: /Queue/, accept: 'Accept', add: 'Add', day: 'Day' },
  pt: { queue: /Aguardando/, accept: 'Aceitar', add: 'Adicionar', day: 'Dia' },
} as const;

/** The UTC offset, in hours, of an Etc zone of whole hours (Etc/GMT-3 is UTC+3: POSIX signs), as playwright.config.ts sets them. */
function offsetOf(zone: string | undefined): number {
  const match = /^Etc\/GMT([+-])(\d+)$/.exec(zone ?? 'Etc/UTC');
  return match ? (match[1] === '-' ? 1 : -1) * Number(match[2]) : 0;
}
/** The browser's zone (E2E_TZ) and the server's (E2E_SERVER_TZ), 12 hours apart. */
const BROWSER_OFFSET = offsetOf(process.env.E2E_TZ);
const SERVER_OFFSET = offsetOf(process.env.E2E_SERVER_TZ);

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as the desk writes it in `language` at UTC`offset`, worked out by hand (not with Intl): English puts the
 * month first and reads the clock in AM/PM, Portuguese the day first on a 24-hour clock (issue 33 item 16).
 */
function written(iso: string, language: Language, offset = BROWSER_OFFSET) {
  const d = new Date(Date.parse(iso) + offset * 3_600_000);
  const [year, month, day, hour, minute] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()];
  const date = language === 'en' ? `${pad(month)}/${pad(day)}/${year}` : `${pad(day)}/${pad(month)}/${year}`;
  const time = language === 'en' ? `${hour % 12 || 12}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}` : `${pad(hour)}:${pad(minute)}`;
  return { date, time, dateTime: `${date}, ${time}`, isoDay: `${year}-${pad(month)}-${pad(day)}` };
}

/** Intl writes a narrow no-break space before AM/PM: read as a plain space. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ').trim();

async function inLanguage(page: Page, language: Language): Promise<void> {
  if (language === 'pt') await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
}

/** Screenshots at 1280 and 390 px (TICKETS_SHOTS), back to 1280 after. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

test.describe('dates read per language, in the browser time zone (issue 33 item 16)', () => {
  test('the browser runs in another time zone than the server', () => {
    expect(Math.abs(BROWSER_OFFSET - SERVER_OFFSET)).toBe(12);
  });

  for (const language of ['en', 'pt'] as const) {
    test(`[${language}] the chat writes its day separator and message times as the language does`, async ({ page, request }) => {
      const connection = await connectedSimulator(request);
      const name = `Datas ${unique()}`;
      const ticket = await pendingTicket(request, connection.id, name, 'Que horas são?');
      const token = await apiLogin(request);
      const { messages } = await api<{ messages: { body: string; createdAt: string }[] }>(request, token, 'GET', `/api/messages/${ticket.id}`);
      const sent = messages.find((m) => m.body === 'Que horas são?')!;
      const expected = written(sent.createdAt, language);

      await page.setViewportSize({ width: 1280, height: 860 });
      await inLanguage(page, language);
      await uiLogin(page);
      await openTab(page, WORDS[language].queue);
      await ticketRow(page, name).getByRole('button', { name: WORDS[language].accept }).click();
      await page.waitForURL(`**/tickets/${ticket.id}`);
      const list = page.getByTestId('messages-list');
      await expect(list.getByTestId('day-separator').first()).toHaveText(expected.date);
      await expect.poll(async () => plain(await list.getByTestId('message-time').first().innerText())).toBe(expected.time);
      // The ticket row shows today's message by its time, in the same words.
      await expect.poll(async () => plain(await ticketRow(page, name).getByTestId('last-message-time').innerText())).toMatch(/\d/);
      await shots(page, `dates-chat-${language}`);
    });

    test(`[${language}] /ZDGAgendamento writes a scheduled day and time as the language does`, async ({ page, request }) => {
      const connection = await connectedSimulator(request);
      const token = await apiLogin(request);
      // The 25th of a month: the day cannot be read as a month, so English and Portuguese differ.
      const sendAt = '2030-11-25T17:05:00.000Z';
      const body = `Consulta ${unique()}`;
      await api(request, token, 'POST', '/api/schedules', { whatsappId: connection.id, number: uniqueNumber(), body, sendAt });

      await page.setViewportSize({ width: 1280, height: 860 });
      await inLanguage(page, language);
      await uiLogin(page);
      await page.goto('/ZDGAgendamento');
      // The list's day filter is a day of the viewer's time zone (the browser's X-Time-Zone: issue 32 §5), which at some
      // hours of the run is not the server's day.
      await page.getByRole('textbox', { name: WORDS[language].day, exact: true }).fill(written(sendAt, language).isoDay);
      const row = page.getByTestId('schedule-row').filter({ hasText: body });
      await expect.poll(async () => plain(await row.getByTestId('schedule-send-at-cell').innerText())).toBe(written(sendAt, language).dateTime);
      await shots(page, `dates-schedules-${language}`);
    });
  }
});

test.describe('forms follow the shared rules (issue 34 item 4) and read whole at 390 px (issue 33 item 17)', () => {
  test("[en] the schedule form refuses a file address the server would refuse, with the server's rule, before sending", async ({ page, request }) => {
    await connectedSimulator(request);
    await page.setViewportSize({ width: 1280, height: 860 });
    await uiLogin(page);
    await page.goto('/ZDGAgendamento');
    await page.getByTestId('schedule-new').click();
    const form = page.getByTestId('schedule-form');
    await form.getByTestId('schedule-number').fill(uniqueNumber());
    await form.getByTestId('schedule-media-url').fill('ftp://files.example.com/menu.pdf');
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/schedules') posted.push(r.url());
    });
    await form.getByRole('button', { name: WORDS.en.add }).click();
    await expect(form).toContainText('Type an address starting with http:// or https://');
    // Neither a recipient nor a text is missing: only the address is wrong.
    await expect(form).not.toContainText('Write a message or give a file URL');
    await page.waitForTimeout(300);
    expect(posted).toEqual([]);
    await shots(page, 'forms-schedule-url-en');
  });

  test('[en] the CSV import refuses a file over the limit before uploading it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 860 });
    await uiLogin(page);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/contacts/import')) uploads.push(r.url());
    });
    const line = 'Nome Grande;5511999990000;nome@example.com\r\n';
    await page.getByTestId('csv-import-file').setInputFiles({
      name: 'grande.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(line.repeat(Math.ceil((5 * 1024 * 1024 + 1) / line.length)), 'utf8'),
    });
    await expect(page.getByTestId('csv-import-file-error')).toHaveText('The file is larger than 5 MB: split it into smaller files.');
    await expect(page.getByTestId('csv-import-preview')).toHaveCount(0);
    expect(uploads).toEqual([]);
    await shots(page, 'forms-csv-too-large-en');
  });

  test('[pt] the close-groups confirmation "Digite FECHAR para confirmar" reads whole at 390 px', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Grupos ${unique()}` });
    await page.setViewportSize({ width: 390, height: 844 });
    await inLanguage(page, 'pt');
    await uiLogin(page);
    await page.goto('/ZDGGroups');
    await page.getByTestId('groups-connection').click();
    await page.getByRole('option', { name: new RegExp(connection.name) }).click();
    await page.getByTestId('groups-tab-close').click();
    const label = page.locator('label').filter({ hasText: 'Digite FECHAR para confirmar' });
    await expect(label).toBeVisible();
    // Not cut: the whole label fits in its box.
    const cut = await label.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(cut).toBe(false);
    await shot(page, 'groups-close-confirmation-pt-390');
  });
});
