import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, createUser, uiLogin, unique, withAttendantTools } from './support/api';
import { shot } from './support/tickets';

let numbers = 0;
/** A number unique to this run, even for several taken in the same millisecond. */
function uniqueNumber(): string {
  numbers += 1;
  return `55219${String(Date.now()).slice(-5)}${String(numbers).padStart(3, '0')}`;
}

interface Contact {
  id: number;
  name: string;
  number: string;
  extraInfo: { id: number; name: string; value: string }[];
}

/** A contact with extra info and an open ticket with it, assigned to whoever `token` is. */
async function contactWithTicket(request: APIRequestContext, token: string) {
  const admin = await apiLogin(request);
  const contact = await api<Contact>(request, admin, 'POST', '/api/contacts', {
    name: `Lia ${unique()}`,
    number: uniqueNumber(),
    email: 'lia@example.com',
    extraInfo: [{ name: 'CPF', value: '123.456.789-00' }, { name: 'Plan', value: 'Gold' }],
  });
  const ticket = await api<{ id: number }>(request, token, 'POST', '/api/tickets', { contactId: contact.id, status: 'open' });
  return { contact, ticket };
}

async function openPanel(page: Page) {
  await page.getByRole('button', { name: 'contact details' }).click();
  const panel = page.getByTestId('contact-drawer');
  await expect(panel).toBeVisible();
  return panel;
}

test.describe('the contact panel beside the chat', () => {
  test('shows the extra info, edits it in place, keeps it after a reload and follows live changes', async ({ page, request }) => {
    await connectedSimulator(request);
    const admin = await apiLogin(request);
    const { contact, ticket } = await contactWithTicket(request, admin);

    await page.setViewportSize({ width: 1440, height: 900 });
    await uiLogin(page);
    await page.goto(`/tickets/${ticket.id}`);
    const chat = page.getByTestId('chat-view');
    await expect(chat).toBeVisible();
    const chatWidth = (await chat.boundingBox())!.width;

    const panel = await openPanel(page);
    await expect(panel.getByText('CPF')).toBeVisible();
    await expect(panel.getByText('123.456.789-00')).toBeVisible();
    await expect(panel.getByRole('link', { name: contact.number })).toHaveAttribute('href', `tel:+${contact.number}`);

    // A panel to the right of the chat, below the app bar (its close button can be clicked); at 1440 px the ticket
    // list gives way so the chat keeps its width (issue 33 item 1).
    const chatBox = (await chat.boundingBox())!;
    const panelBox = (await panel.boundingBox())!;
    await expect(page.getByTestId('tickets-column')).toBeHidden();
    expect(chatBox.width).toBeGreaterThanOrEqual(chatWidth - 1);
    expect(panelBox.x).toBeGreaterThanOrEqual(chatBox.x + chatBox.width - 1);
    await expect(page.getByTestId('contact-drawer-close')).toBeVisible();
    expect((await page.getByTestId('contact-drawer-close').boundingBox())!.y).toBeGreaterThanOrEqual(48);
    await shot(page, 'contact-panel-en');

    // Edited in place, with the contact form's rules.
    await panel.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByTestId('contact-panel-form');
    await form.locator('input[name="name"]').fill('L');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Too Short!')).toBeVisible();
    const newName = `Lia Souza ${unique()}`;
    await form.locator('input[name="name"]').fill(newName);
    await form.locator('input[name="extraInfo.1.value"]').fill('Platinum');
    await shot(page, 'contact-panel-editing-en');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(panel.getByTestId('contact-drawer-name')).toHaveText(newName);
    await expect(panel.getByText('Platinum')).toBeVisible();
    await expect(page.getByTestId('ticket-title')).toContainText(newName);

    // Persisted: after a reload the panel shows what was saved.
    await page.reload();
    const again = await openPanel(page);
    await expect(again.getByTestId('contact-drawer-name')).toHaveText(newName);
    await expect(again.getByText('Platinum')).toBeVisible();
    const stored = await api<Contact>(request, admin, 'GET', `/api/contacts/${contact.id}`);
    expect(stored.extraInfo.map((i) => i.value)).toEqual(['123.456.789-00', 'Platinum']);

    // Live: another screen changes the contact, the panel follows.
    await api(request, admin, 'PUT', `/api/contacts/${contact.id}`, {
      name: newName,
      number: contact.number,
      email: 'lia@example.com',
      extraInfo: [...stored.extraInfo, { name: 'City', value: 'Recife' }],
    });
    await expect(again.getByText('Recife')).toBeVisible();

    // Narrower desktops: a drawer over the chat, its close button not hidden under the app bar.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect(again.getByText('Recife')).toBeVisible();
    await page.getByTestId('contact-drawer-close').click();
    await expect(again).toBeHidden();
  });

  test('shows the number read-only to a user, and is a drawer over the page at phone width', async ({ page, request }) => {
    await connectedSimulator(request);
    const user = await createUser(request);
    const userToken = await apiLogin(request, user.email, user.password);
    const { contact, ticket } = await contactWithTicket(request, userToken);

    await page.setViewportSize({ width: 390, height: 844 });
    await uiLogin(page, user.email, user.password);
    await page.goto(`/tickets/${ticket.id}`);
    const panel = await openPanel(page);
    await expect(panel.getByText('Gold')).toBeVisible();
    const box = (await panel.boundingBox())!;
    expect(box.width).toBeGreaterThan(380);
    await shot(page, 'contact-panel-phone-en');

    await panel.getByRole('button', { name: 'Edit' }).click();
    const number = page.getByTestId('contact-panel-form').locator('input[name="number"]');
    await expect(number).toHaveAttribute('readonly', '');
    await expect(page.getByText("Only an admin can change a contact's number.")).toBeVisible();
    await expect(number).toHaveValue(contact.number);
    await shot(page, 'contact-panel-phone-editing-en');

    await page.getByTestId('contact-drawer-close').click();
    await expect(panel).toBeHidden();
  });
});

test.describe('contacts import from a CSV file', () => {
  test('uploads a file, previews its errors line by line, imports the valid lines without duplicates', async ({ page, request }) => {
    const admin = await apiLogin(request);
    const existing = await api<Contact>(request, admin, 'POST', '/api/contacts', { name: `Old ${unique()}`, number: uniqueNumber() });
    const [first, second] = [`Ana ${unique()}`, `Bia ${unique()}`];
    const [n1, n2] = [uniqueNumber(), uniqueNumber()];
    // What Excel in Brazil writes: a byte order mark and semicolons.
    const csv = [
      'nome;número;email;Plano',
      `${first};${n1};ana@example.com;Ouro`,
      `Sem número;12ab;;`,
      `${second};${n2};;`,
      `${second} again;${n2};;`,
      `${existing.name};${existing.number};;`,
    ].join('\r\n');

    await page.setViewportSize({ width: 1280, height: 900 });
    await uiLogin(page);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByTestId('csv-import-dialog');
    await expect(dialog.getByText(/not checked on WhatsApp/)).toBeVisible();
    await page.getByTestId('csv-import-file').setInputFiles({
      name: 'contatos.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${csv}\r\n`, 'utf8'),
    });

    const rows = dialog.getByTestId('csv-import-row');
    await expect(rows).toHaveCount(5);
    await expect(dialog.getByTestId('csv-import-summary')).toContainText('2 new contacts');
    await expect(dialog.getByTestId('csv-import-summary')).toContainText('1 skipped');
    await expect(dialog.getByTestId('csv-import-summary')).toContainText('2 lines with errors');
    await expect(rows.filter({ hasText: 'Sem número' })).toContainText('Number: not a phone number');
    await expect(rows.filter({ hasText: 'Sem número' })).toHaveAttribute('data-status', 'invalid');
    await expect(rows.filter({ hasText: `${second} again` })).toContainText('Duplicate');
    await expect(rows.filter({ hasText: existing.name })).toContainText('Skipped, exists');
    await shot(page, 'csv-import-preview-en');

    await page.getByRole('dialog').getByRole('button', { name: 'Import 2 contacts' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/2 created, 1 skipped, 2 lines with errors/)).toBeVisible();
    const table = page.getByTestId('contacts-table');
    await expect(table.getByTestId('contact-row').filter({ hasText: first })).toHaveCount(1);
    await expect(table.getByTestId('contact-row').filter({ hasText: second })).toHaveCount(1);

    const found = await api<{ contacts: Contact[] }>(request, admin, 'GET', `/api/contacts?searchParam=${n1}`);
    expect(found.contacts).toHaveLength(1);
    expect(found.contacts[0]!.extraInfo).toMatchObject([{ name: 'Plano', value: 'Ouro' }]);

    // A link to a contact's form opens it.
    await page.goto(`/contacts?edit=${found.contacts[0]!.id}`);
    await expect(page.getByTestId('contact-modal').locator('input[name="name"]')).toHaveValue(first);
  });

  test('is offered to attendants by default, and refused once attendantTools leaves contactsImport out', async ({ page, request }) => {
    const user = await createUser(request);
    await uiLogin(page, user.email, user.password);
    await page.goto('/contacts');
    await expect(page.getByRole('button', { name: 'Add contact' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import CSV' })).toBeVisible();
    await withAttendantTools(request, 'contactsExport', async () => {
      await expect(page.getByRole('button', { name: 'Import CSV' })).toHaveCount(0);
      const res = await request.post('/api/contacts/import/csv', {
        headers: { authorization: `Bearer ${await apiLogin(request, user.email, user.password)}`, 'content-type': 'text/csv' },
        data: 'name,number\nNobody,5511900000000\n',
      });
      expect(res.status()).toBe(403);
    });
  });
});

// Screens to look at, in Portuguese and at phone width (only when TICKETS_SHOTS names a folder).
test('screens of the contact panel and the CSV import in Portuguese', async ({ page, request }) => {
  test.skip(!process.env.TICKETS_SHOTS, 'screenshots only');
  await connectedSimulator(request);
  const admin = await apiLogin(request);
  const { ticket } = await contactWithTicket(request, admin);
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
  await page.setViewportSize({ width: 1366, height: 800 });
  await uiLogin(page);
  await page.goto(`/tickets/${ticket.id}`);
  await page.getByRole('button', { name: 'dados do contato' }).click();
  await expect(page.getByTestId('contact-drawer')).toBeVisible();
  await shot(page, 'contact-panel-pt');
  // Between phone and wide screens the panel covers the chat instead of squeezing it.
  await page.setViewportSize({ width: 1024, height: 768 });
  await shot(page, 'contact-panel-1024-pt');
  await page.getByTestId('contact-drawer').getByRole('button', { name: 'Editar' }).click();
  await page.getByTestId('contact-panel-form').locator('input[name="email"]').fill('not-an-email');
  await page.getByTestId('contact-panel-form').getByRole('button', { name: 'Salvar' }).click();
  await shot(page, 'contact-panel-editing-error-pt');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/contacts');
  await shot(page, 'contacts-page-phone-pt');
  await page.getByRole('button', { name: 'Importar CSV' }).click();
  await page.getByTestId('csv-import-file').setInputFiles({
    name: 'contatos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`nome;número;email\r\nMaria da Silva;${uniqueNumber()};maria@example.com\r\nX;123;\r\nJoão;${uniqueNumber()};joao@\r\n`, 'utf8'),
  });
  await expect(page.getByTestId('csv-import-row')).toHaveCount(3);
  await shot(page, 'csv-import-phone-pt');
});
