import { expect, test, type Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin, unique } from './support/api';
import { serveSmtp } from './support/smtp';
import { createQueue, outbox, uniqueNumber } from './support/tickets';
import { ticketIdOf } from './support/transfer';

/** A loopback SMTP server for the transcript (its notes only when asked for). */
const received: ParsedMail[] = [];
const smtp = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, _session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push(mail);
        callback();
      },
      (err: Error) => callback(err),
    );
  },
  logger: false,
});
const smtpServer = serveSmtp(smtp);

/** Screenshots of notes and mentions, when NOTES_SHOTS (or TICKETS_SHOTS) names a folder. */
async function notesShot(page: Page, name: string): Promise<void> {
  const dir = process.env.NOTES_SHOTS ?? process.env.TICKETS_SHOTS;
  if (!dir) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${dir}/${name}.png` });
}

/** A ticket of a new contact in a queue of its own, taken by the admin; an attendant of that queue. */
async function queueTicket(request: Parameters<typeof apiLogin>[0], attendantName: string) {
  const queue = await createQueue(request);
  const connection = await connectedSimulator(request, { queueIds: [queue.id] });
  const attendant = await createUser(request, { name: attendantName, queueIds: [queue.id] });
  const number = uniqueNumber();
  const contact = `Clara ${unique()}`;
  await contactWrites(request, connection.id, { from: number, name: contact, body: 'My order did not arrive' });
  const ticketId = await ticketIdOf(request, number);
  await api(request, await apiLogin(request), 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });
  return { queue, connection, attendant, number, contact, ticketId };
}

test.describe('private notes and mentions (issue 36 §1)', () => {
  test('an admin writes a note naming an attendant, who is notified live and opens the ticket from the bell', async ({ browser, baseURL, request }) => {
    // Two browsers, two sign-ins and two reloads: more than the default minute on a busy machine.
    test.setTimeout(180_000);
    const { connection, attendant, number, contact, ticketId } = await queueTicket(request, `Bia ${unique()}`);
    const sentBefore = (await outbox(request, connection.id, number)).length;

    // The attendant is signed in elsewhere, on the tickets screen (the ticket is not theirs).
    const attendantContext = await browser.newContext({ baseURL, locale: 'en-US' });
    const adminContext = await browser.newContext({ baseURL, locale: 'en-US' });
    try {
      const bia = await attendantContext.newPage();
      await bia.setViewportSize({ width: 1280, height: 800 });
      await uiLogin(bia, attendant.email, attendant.password);

      const admin = await adminContext.newPage();
      await admin.setViewportSize({ width: 1280, height: 800 });
      await uiLogin(admin);
      await admin.goto(`/tickets/${ticketId}`);
      await expect(admin.getByTestId('ticket-title')).toContainText(contact, { timeout: 30_000 });

      // Reply / Private note, reached with the keyboard: Tab onto the switch, arrow or Space to choose.
      await admin.getByTestId('composer-mode-note').focus();
      await admin.keyboard.press('Space');
      await expect(admin.getByTestId('composer')).toHaveAttribute('data-mode', 'note');
      const box = admin.getByRole('textbox', { name: /Internal note/ });
      await box.fill('');
      await box.pressSequentially('@' + attendant.name.slice(0, 3));
      const options = admin.getByTestId('mention-options');
      await expect(options.getByRole('option', { name: `@${attendant.name}` })).toBeVisible();
      await notesShot(admin, 'en-01-mention-autocomplete');
      await box.press('Enter');
      await expect(box).toHaveValue(`@${attendant.name} `);
      await box.pressSequentially('could you call the customer tomorrow? VIP client.');
      await box.press('Enter');

      const noteBubble = admin.locator('[data-testid="message"][data-private="true"]').last();
      await expect(noteBubble).toContainText('could you call the customer tomorrow?');
      await expect(noteBubble.getByTestId('note-header')).toHaveText('Note · Admin');
      await expect(noteBubble.getByTestId('ack-0')).toHaveCount(0);
      await notesShot(admin, 'en-02-note-in-chat');

      // Never sent to the contact.
      await admin.waitForTimeout(500);
      expect(await outbox(request, connection.id, number)).toHaveLength(sentBefore);

      // The attendant hears of it: a toast, the bell's count and its entry, which opens the ticket.
      await expect(bia.getByText(`Admin mentioned you on ${contact}`).first()).toBeVisible({ timeout: 15_000 });
      await expect(bia.getByTestId('notifications-count')).not.toHaveText('0');
      // Kept by the server until opened: a reload still has it in the bell.
      await bia.reload();
      await expect(bia.getByTestId('notifications-count')).not.toHaveText('0');
      await bia.getByTestId('notifications-bell').click();
      const entry = bia.getByTestId('mention-notification');
      await expect(entry).toContainText(`Admin mentioned you on ${contact}`);
      await expect(entry).toContainText('could you call the customer tomorrow?');
      await notesShot(bia, 'en-03-bell');
      await entry.click();
      await bia.waitForURL(`**/tickets/${ticketId}`);
      await expect(bia.locator('[data-testid="message"][data-private="true"]').last()).toContainText('could you call the customer tomorrow?');
      // Opened: off the bell, after a reload too.
      await bia.reload();
      await expect(bia.getByTestId('chat-view')).toBeVisible({ timeout: 30_000 });
      await bia.getByTestId('notifications-bell').click();
      await expect(bia.getByTestId('mention-notification')).toHaveCount(0);
    } finally {
      await attendantContext.close();
      await adminContext.close();
    }
  });

  test('in Portuguese at 390 px: the note switch, the yellow note, and an outsider cannot be named', async ({ page, request }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    const { connection, attendant, number, ticketId } = await queueTicket(request, `Duda ${unique()}`);
    const otherQueue = await createQueue(request);
    const outsider = await createUser(request, { name: `Fora ${unique()}`, queueIds: [otherQueue.id] });
    await page.setViewportSize({ width: 390, height: 780 });
    await uiLogin(page, attendant.email, attendant.password);
    await page.goto(`/tickets/${ticketId}`);
    await expect(page.getByTestId('composer')).toBeVisible({ timeout: 30_000 });

    await page.getByTestId('composer-mode-note').click();
    const box = page.getByRole('textbox', { name: /Nota interna/ });
    await expect(box).toBeVisible();
    // Only colleagues who may see the ticket are offered.
    await box.pressSequentially('@Fo');
    await expect(page.getByTestId('mention-options')).toHaveCount(0);
    await box.fill('');
    await box.pressSequentially('Cliente pediu troca, aguardando foto do produto.');
    await notesShot(page, 'pt-01-note-composer-390');
    await box.press('Enter');
    const noteBubble = page.locator('[data-testid="message"][data-private="true"]').last();
    await expect(noteBubble.getByTestId('note-header')).toHaveText(`Nota · ${attendant.name}`);
    await expect(box).toHaveValue('');
    await notesShot(page, 'pt-02-note-390');

    // Typed by hand, an outsider's name is refused, and the note is kept in the box.
    await box.fill(`@${outsider.name} veja isto`);
    await box.press('Enter');
    await expect(page.getByText('Um colega mencionado não pode ver este atendimento').first()).toBeVisible();
    await expect(box).toHaveValue(`@${outsider.name} veja isto`);

    // Back to Reply: the message goes to the contact.
    await page.getByTestId('composer-mode-reply').click();
    await page.getByRole('textbox', { name: /Digite uma mensagem/ }).fill('Olá! Pode enviar uma foto?');
    await page.getByRole('textbox', { name: /Digite uma mensagem/ }).press('Enter');
    await expect.poll(async () => (await outbox(request, connection.id, number)).map((o) => o.body)).toContainEqual(expect.stringContaining('Pode enviar uma foto?'));
    const sent = await outbox(request, connection.id, number);
    expect(sent.some((o) => o.body.includes('aguardando foto'))).toBe(false);

    // A resolved ticket takes no reply, but still takes a note.
    await api(request, await apiLogin(request), 'PUT', `/api/tickets/${ticketId}`, { status: 'closed' });
    await page.reload();
    await expect(page.getByRole('textbox', { name: /Digite uma mensagem/ })).toBeDisabled({ timeout: 30_000 });
    await page.getByTestId('composer-mode-note').click();
    await page.getByRole('textbox', { name: /Nota interna/ }).fill('Resolvido: troca enviada.');
    await page.getByRole('textbox', { name: /Nota interna/ }).press('Enter');
    await expect(page.locator('[data-testid="message"][data-private="true"]').last()).toContainText('Resolvido: troca enviada.');
  });

  test('the e-mailed transcript leaves the notes out unless "Include internal notes" is ticked', async ({ page, request }) => {
    const token = await apiLogin(request);
    for (const [key, value] of Object.entries({ emailHost: '127.0.0.1', emailPort: String(smtpServer.port()), emailSecure: 'none', emailUser: '', emailFrom: 'desk@example.com', emailTo: 'boss@example.com' })) {
      await api(request, token, 'PUT', `/api/settings/${key}`, { value });
    }
    const { ticketId } = await queueTicket(request, `Eli ${unique()}`);
    await api(request, token, 'POST', `/api/messages/${ticketId}`, { body: 'combinado desconto de 10%', private: true });
    received.length = 0;

    await page.setViewportSize({ width: 1280, height: 800 });
    await uiLogin(page);
    await page.goto(`/tickets/${ticketId}`);
    await expect(page.locator('[data-testid="message"][data-private="true"]')).toContainText('combinado desconto de 10%', { timeout: 30_000 });
    await page.getByRole('button', { name: /import and export/i }).click();
    for (const include of [false, true]) {
      await page.getByTestId('chat-email').click();
      const dialog = page.getByRole('dialog');
      const box = dialog.getByRole('checkbox', { name: 'Include internal notes' });
      await expect(box).not.toBeChecked();
      if (include) {
        await box.check();
        await notesShot(page, 'en-04-transcript-dialog');
      }
      await dialog.getByRole('button', { name: 'Send' }).click();
      await expect(dialog).toBeHidden();
    }
    await expect.poll(() => received.length).toBe(2);
    expect(received[0]!.text).toContain('My order did not arrive');
    expect(received[0]!.text).not.toContain('combinado desconto');
    expect(received[1]!.text).toContain('Note · Admin: combinado desconto de 10%');
  });
});
