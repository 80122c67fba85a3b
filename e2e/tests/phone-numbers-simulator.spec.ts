import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import { setLanguage } from './support/chat';
import { shot } from './support/tickets';

/** 8 digits no other call of this run gives (never ending in 0000). */
let counter = 0;
function eightDigits(): string {
  counter += 1;
  return `${String(Date.now()).slice(-5)}${String(counter).padStart(2, '0')}7`;
}

const SIZES = [
  { width: 1280, height: 860, tag: '1280' },
  { width: 390, height: 844, tag: '390' },
] as const;

async function addContact(page: Page, name: string, number: string, labels: { add: RegExp; name: RegExp; number: RegExp }) {
  await page.getByRole('button', { name: labels.add }).first().click();
  const modal = page.getByRole('dialog');
  await modal.getByLabel(labels.name).first().fill(name);
  await modal.getByLabel(labels.number).fill(number);
  return modal;
}

test.describe('issue 33: one phone-number rule, the simulator page', () => {
  // Each test walks two languages at two widths.
  test.describe.configure({ timeout: 240_000 });

  test('item 11: the contact form takes "+55 11 9…" as digits and refuses a number without a country code, in English and Portuguese', async ({ page }) => {
    await uiLogin(page);
    for (const lng of ['en', 'pt'] as const) {
      await setLanguage(page, lng);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.goto('/contacts');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(lng === 'en' ? 'Contacts' : 'Contatos');
        const labels =
          lng === 'en'
            ? { add: /^Add contact$/, name: /^Name$/, number: /^Number$/, save: /^Add$/, error: 'Start with the country code (55 for Brazil, 1 for the USA)' }
            : { add: /^Adicionar contato$/, name: /^Nome$/, number: /^Número$/, save: /^Adicionar$/, error: 'Comece pelo código do país (55 para o Brasil, 1 para os EUA)' };
        const name = `Regra ${unique()}`;
        const modal = await addContact(page, name, '99912345678', labels);
        await modal.getByRole('button', { name: labels.save }).click();
        await expect(modal.getByText(labels.error)).toBeVisible();
        await shot(page, `number-rule-refused-${lng}-${size.tag}`);
        const digits = eightDigits();
        await modal.getByLabel(labels.number).fill(`+55 11 9${digits.slice(0, 4)}-${digits.slice(4)}`);
        await modal.getByRole('button', { name: labels.save }).click();
        await expect(modal).toBeHidden();
        const token = await apiLogin(page.request);
        const found = await api<{ contacts: { name: string; number: string }[] }>(page.request, token, 'GET', `/api/contacts?searchParam=${encodeURIComponent(name.toLowerCase())}`);
        expect(found.contacts.map((c) => c.number)).toEqual([`55119${digits}`]);
      }
    }
    await setLanguage(page, 'en');
  });

  test('item 12: a number typed in the new-ticket dialog finds the contact stored without the ninth digit', async ({ page, request }) => {
    const token = await apiLogin(request);
    // Stored in the 12-digit form (a contact saved before the rule, through the simulator's own id for area 41).
    const digits = eightDigits();
    // The dialog opens tickets on the default connection: the conversation is on it (earlier tests made others).
    const connections = await api<{ id: number; isDefault: boolean }[]>(request, token, 'GET', '/api/whatsapp');
    const previousDefault = connections.find((c) => c.isDefault)?.id;
    const connection = await connectedSimulator(request, { isDefault: true });
    try {
      const name = `Curitiba ${unique()}`;
      await contactWrites(request, connection.id, { from: `+55 41 9${digits}`, name, body: 'Oi' });
      await expect
        .poll(async () => (await api<{ contacts: { number: string }[] }>(request, token, 'GET', `/api/contacts?searchParam=${encodeURIComponent(name.toLowerCase())}`)).contacts.map((c) => c.number))
        .toEqual([`5541${digits}`]);
      await page.setViewportSize({ width: 1280, height: 860 });
      await uiLogin(page);
      await page.getByRole('button', { name: 'New' }).click();
      await page.getByLabel('Search contact').fill(`+55 41 9${digits.slice(0, 4)}-${digits.slice(4)}`);
      await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible();
      await expect(page.getByRole('option', { name: /Add contact/ })).toHaveCount(0);
      // Its conversation is under way (the 'Oi' above made a ticket): Save opens that ticket, not a second one.
      await page.getByRole('option', { name: new RegExp(name) }).click();
      await shot(page, 'number-rule-new-ticket-finds-contact');
      await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('This contact already has a ticket in progress: here it is.')).toBeVisible();
      await expect(page.getByTestId('messages-list').getByText('Oi', { exact: true })).toBeVisible();
      const opened = Number(/\/tickets\/(\d+)/.exec(page.url())?.[1]);
      const ticket = await api<{ contact: { name: string }; status: string }>(request, token, 'GET', `/api/tickets/${opened}`);
      expect(ticket).toMatchObject({ contact: { name }, status: 'pending' });
    } finally {
      // Later tests keep the default connection they had.
      if (previousDefault) await api(request, token, 'PUT', `/api/whatsapp/${previousDefault}`, { isDefault: true });
    }
  });

  test('item 25: the simulator page shows its hidden rule, sends a location and a contact card; a failed reply shows on the ticket', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Sim regra ${unique()}` });
    await uiLogin(page);
    for (const lng of ['en', 'pt'] as const) {
      await setLanguage(page, lng);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.goto(`/simulator?connection=${connection.id}`);
        const rule = page.getByTestId('simulator-rule');
        await expect(rule).toContainText('0000');
        await expect(rule).toContainText(lng === 'en' ? 'not on WhatsApp' : 'não está no WhatsApp');
        const numberField = page.getByLabel(lng === 'en' ? 'Phone number' : 'Número de telefone');
        await numberField.fill('5511987650000');
        await expect(page.getByTestId('simulator-number-help')).toContainText('0000');
        await shot(page, `simulator-rule-${lng}-${size.tag}`);
      }
    }
    await setLanguage(page, 'en');

    // A customer shares a location and a contact card from the simulator page.
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`/simulator?connection=${connection.id}`);
    const digits = eightDigits();
    await page.getByLabel('Phone number').fill(`+55 11 9${digits}`);
    await page.getByLabel('Name (optional)').fill('Cliente Mapa');
    await page.getByRole('button', { name: 'Chat as this customer' }).click();
    await page.getByRole('button', { name: 'share a location or a contact' }).click();
    await page.getByRole('menuitem', { name: 'Location' }).click();
    const locationDialog = page.getByRole('dialog', { name: 'Send a location' });
    await locationDialog.getByLabel('Description (optional)').fill('Av. Paulista, 1000');
    await shot(page, 'simulator-share-location-1280');
    await locationDialog.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'share a location or a contact' }).click();
    await page.getByRole('menuitem', { name: 'Contact card' }).click();
    const cardDialog = page.getByRole('dialog', { name: 'Send a contact card' });
    await cardDialog.getByLabel('Contact name').fill('Joana Indicada');
    await cardDialog.getByLabel('Contact number').fill('+55 21 98888-7777');
    await cardDialog.getByRole('button', { name: 'Send' }).click();
    const shared = page.getByTestId('customer-shared');
    await expect(shared).toHaveCount(2);
    await expect(shared.nth(0)).toContainText('Av. Paulista, 1000');
    await expect(shared.nth(1)).toContainText('Joana Indicada');
    await shot(page, 'simulator-shared-1280');

    // Both reach the desk as a location and a contact card.
    const token = await apiLogin(request);
    let ticketId = 0;
    await expect
      .poll(async () => {
        const list = await api<{ tickets: { id: number; contact: { number: string } }[] }>(request, token, 'GET', '/api/tickets?status=pending&showAll=true');
        ticketId = list.tickets.find((t) => t.contact.number === `55119${digits}`)?.id ?? 0;
        return ticketId;
      })
      .toBeGreaterThan(0);
    await page.goto(`/tickets/${ticketId}`);
    await expect(page.getByTestId('messages-list').getByText('Av. Paulista, 1000')).toBeVisible();
    await expect(page.getByText('Joana Indicada')).toBeVisible();

    // A customer whose number ends in 0000: the reply fails and stays on the ticket, marked.
    await contactWrites(request, connection.id, { from: '5511987650000', name: `Sem WhatsApp ${unique()}`, body: 'Oi?' });
    let failingId = 0;
    await expect
      .poll(async () => {
        const list = await api<{ tickets: { id: number; contact: { number: string } }[] }>(request, token, 'GET', '/api/tickets?status=pending&showAll=true');
        failingId = list.tickets.find((t) => t.contact.number === '5511987650000')?.id ?? 0;
        return failingId;
      })
      .toBeGreaterThan(0);
    await api(request, token, 'PUT', `/api/tickets/${failingId}`, { status: 'open' });
    for (const lng of ['en', 'pt'] as const) {
      await setLanguage(page, lng);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.goto(`/tickets/${failingId}`);
        const body = `Resposta ${lng} ${size.tag}`;
        const input = page.getByRole('textbox', { name: lng === 'en' ? /Type a message/ : /Digite uma mensagem/ });
        await input.fill(body);
        await input.press('Enter');
        const failed = page.getByTestId('message-send-error').last();
        await expect(failed).toBeVisible();
        await expect(failed).toContainText(lng === 'en' ? 'Not delivered' : 'Não entregue');
        await shot(page, `failed-send-${lng}-${size.tag}`);
      }
    }
    await setLanguage(page, 'en');
  });
});
