import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, api, apiLogin, connectedSimulator, contactWrites, createUser, uiLogin } from '../tests/support/api';
import { simulatorAck, outbox, ticketRow } from '../tests/support/tickets';
import { wordsOf, type GuideLanguage } from './words';

/**
 * The user guide's screenshots (docs/guide/images/<lang>/*.png), taken from the real app with data seeded through the
 * API and the simulator. Run by `npm run docs:shots` (scripts/docs-shots.mjs): one run per language, each on a fresh
 * database, so every name and message is in the guide's language.
 */
const lang = (process.env.GUIDE_LANG ?? 'en') as GuideLanguage;
const t = wordsOf(lang);
const out = path.resolve(import.meta.dirname, '../../docs/guide/images', lang);

/** The seeded data, in the guide's language. */
const DATA = {
  en: {
    support: 'Support',
    supportGreeting: 'Hello! You are talking to Support.',
    sales: 'Sales',
    connection: 'Main store',
    newConnection: 'Second number',
    attendant: 'Ana Souza',
    quick: [
      { shortcut: 'hours', message: 'We are open Monday to Friday, from 8 a.m. to 6 p.m.' },
      { shortcut: 'thanks', message: 'Thank you for writing to us! Is there anything else we can do for you?' },
    ],
    maria: ['Hello, my order #4521 has not arrived yet.', 'It was due on Monday.'],
    mariaReply: 'Hello Maria! Let me check your order right away.',
    joao: 'Good afternoon, do you have the blue jacket in size M?',
    carla: 'Can I change the delivery address?',
    pedro: 'Thank you, the exchange worked!',
    pedroReply: 'You are welcome, Pedro. Have a nice day!',
    customer: 'Lucas Ferreira',
    extraName: 'Customer since',
    extraValue: '2021',
    campaign: 'Our winter sale starts today: 20% off every jacket!',
    schedule: 'Hello Carla, your new delivery address is confirmed.',
    groups: ['VIP customers', 'Resellers'],
    search: 'order',
    csv: 'name,number,email,city\nBeatriz Costa,5511987650201,beatriz@example.com,Campinas\nRafael Alves,5521987650202,,Rio de Janeiro\n',
  },
  pt: {
    support: 'Suporte',
    supportGreeting: 'Olá! Você está falando com o Suporte.',
    sales: 'Vendas',
    connection: 'Loja principal',
    newConnection: 'Segundo número',
    attendant: 'Ana Souza',
    quick: [
      { shortcut: 'horario', message: 'Atendemos de segunda a sexta, das 8h às 18h.' },
      { shortcut: 'obrigado', message: 'Obrigado pelo contato! Posso ajudar em mais alguma coisa?' },
    ],
    maria: ['Olá, meu pedido #4521 ainda não chegou.', 'A entrega era para segunda-feira.'],
    mariaReply: 'Olá, Maria! Vou verificar o seu pedido agora mesmo.',
    joao: 'Boa tarde, vocês têm a jaqueta azul no tamanho M?',
    carla: 'Posso mudar o endereço de entrega?',
    pedro: 'Obrigado, a troca deu certo!',
    pedroReply: 'Por nada, Pedro. Tenha um ótimo dia!',
    customer: 'Lucas Ferreira',
    extraName: 'Cliente desde',
    extraValue: '2021',
    campaign: 'Nossa liquidação de inverno começa hoje: 20% de desconto em todas as jaquetas!',
    schedule: 'Olá, Carla, o seu novo endereço de entrega está confirmado.',
    groups: ['Clientes VIP', 'Revendedores'],
    search: 'pedido',
    csv: 'name,number,email,cidade\nBeatriz Costa,5511987650201,beatriz@example.com,Campinas\nRafael Alves,5521987650202,,Rio de Janeiro\n',
  },
}[lang];

/** Customers (Brazilian mobiles as WhatsApp ids: the ninth digit up to area code 30, decision 0031). */
const CUSTOMERS = {
  maria: { name: 'Maria Oliveira', number: '5511987650101' },
  joao: { name: 'João Santos', number: '5511987650102' },
  carla: { name: 'Carla Mendes', number: '5521987650103' },
  pedro: { name: 'Pedro Lima', number: '554187650104' },
};

async function shot(page: Page, name: string): Promise<void> {
  // Toasts of earlier steps are not part of the picture.
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
}

async function ticketIdOf(request: APIRequestContext, token: string, number: string): Promise<number> {
  let id: number | undefined;
  await expect
    .poll(async () => {
      const { tickets } = await api<{ tickets: { id: number; contact: { number: string } }[] }>(request, token, 'GET', `/api/tickets?searchParam=${number}&showAll=true`);
      id = tickets.find((ticket) => ticket.contact.number === number)?.id;
      return id;
    })
    .toBeDefined();
  return id!;
}

test.describe.configure({ mode: 'serial' });

test(`the user guide's screenshots (${lang})`, async ({ page, request }) => {
  test.setTimeout(10 * 60_000);
  mkdirSync(out, { recursive: true });
  const token = await apiLogin(request);

  // The desk: two queues, a paired simulator connection, an attendant, quick answers.
  const support = await api<{ id: number }>(request, token, 'POST', '/api/queue', { name: DATA.support, color: '#1565C0', greetingMessage: DATA.supportGreeting });
  const sales = await api<{ id: number }>(request, token, 'POST', '/api/queue', { name: DATA.sales, color: '#2E7D32', greetingMessage: '' });
  const connection = await connectedSimulator(request, { name: DATA.connection, queueIds: [support.id] });
  await createUser(request, { name: DATA.attendant, email: 'ana@example.com', queueIds: [support.id, sales.id] });
  for (const quick of DATA.quick) await api(request, token, 'POST', '/api/quickAnswers', quick);

  // Customers write in through the simulator.
  const { maria, joao, carla, pedro } = CUSTOMERS;
  for (const body of DATA.maria) await contactWrites(request, connection.id, { from: maria.number, name: maria.name, body });
  await contactWrites(request, connection.id, { from: joao.number, name: joao.name, body: DATA.joao });
  await contactWrites(request, connection.id, { from: carla.number, name: carla.name, body: DATA.carla });
  await contactWrites(request, connection.id, { from: pedro.number, name: pedro.name, body: DATA.pedro });
  // Pedro's conversation was answered and resolved.
  const pedroTicket = await ticketIdOf(request, token, pedro.number);
  const me = await api<{ id: number }[] | { users: { id: number; email: string }[] }>(request, token, 'GET', '/api/users');
  const adminId = ('users' in me ? me.users : me).find((u) => (u as { email?: string }).email === ADMIN.email)?.id;
  await api(request, token, 'PUT', `/api/tickets/${pedroTicket}`, { status: 'open', userId: adminId });
  await api(request, token, 'POST', `/api/messages/${pedroTicket}`, { body: DATA.pedroReply });
  await api(request, token, 'PUT', `/api/tickets/${pedroTicket}`, { status: 'closed' });
  // A contact added by hand, with an e-mail and extra information.
  await api(request, token, 'POST', '/api/contacts', {
    name: DATA.customer,
    number: '5511987650105',
    email: 'lucas@example.com',
    extraInfo: [{ name: DATA.extraName, value: DATA.extraValue }],
  });
  // Groups on the simulated phone, a scheduled message.
  for (const subject of DATA.groups) {
    await api(request, token, 'POST', `/api/simulator/${connection.id}/groups`, { subject, participants: [maria.number, joao.number] });
  }
  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  tomorrow.setMinutes(0, 0, 0);
  await api(request, token, 'POST', '/api/schedules', { whatsappId: connection.id, number: carla.number, body: DATA.schedule, sendAt: tomorrow.toISOString() });

  await test.step('first steps: sign in, connect a number', async () => {
    await page.goto('/login');
    await page.getByLabel(/^(e-?mail)/i).fill(ADMIN.email);
    await shot(page, '01-login');
    await uiLogin(page);
    await page.goto('/connections');
    await expect(page.getByTestId('connection-row').filter({ hasText: DATA.connection })).toContainText(t('connections.status.CONNECTED'));
    await shot(page, '03-connections');

    await page.getByRole('button', { name: t('connections.add') }).click();
    const modal = page.getByRole('dialog', { name: t('connections.modal.addTitle') });
    await modal.getByLabel(t('connections.fields.name')).fill(DATA.newConnection);
    await modal.getByRole('combobox', { name: t('connections.fields.channel') }).click();
    await expect(page.getByRole('option', { name: t('connections.channels.simulator') })).toBeVisible();
    await shot(page, '04-add-connection');
    await page.getByRole('option', { name: t('connections.channels.cloud-api') }).click();
    await expect(modal.getByLabel(t('connections.cloud.cloudPhoneNumberId'))).toBeVisible();
    await shot(page, '05-cloud-api-connection');
    await modal.getByRole('button', { name: t('common.cancel') }).click();

    // A simulator connection waiting for its QR code to be scanned.
    const second = await api<{ id: number }>(request, token, 'POST', '/api/whatsapp', { name: DATA.newConnection, channel: 'simulator' });
    const row = page.getByTestId('connection-row').filter({ hasText: DATA.newConnection });
    await row.getByRole('button', { name: t('connections.actions.qrcode') }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: t('connections.qr.openSimulator') }).or(page.getByRole('dialog').getByRole('button', { name: t('connections.qr.openSimulator') }))).toBeVisible();
    await shot(page, '06-qr-code');
    await page.keyboard.press('Escape');
    await api(request, token, 'DELETE', `/api/whatsapp/${second.id}`);
  });

  await test.step('the dashboard', async () => {
    await page.goto('/');
    await expect(page.getByTestId('dashboard')).toBeVisible();
    await shot(page, '02-dashboard');
  });

  await test.step('the tickets screen', async () => {
    await page.goto('/tickets');
    await page.getByRole('tab', { name: new RegExp(`^${t('tickets.tabs.queue')}`) }).click();
    await expect(ticketRow(page, maria.name)).toBeVisible();
    await expect(ticketRow(page, carla.name)).toBeVisible();
    await shot(page, '07-tickets-queue');

    await ticketRow(page, maria.name).getByRole('button', { name: t('tickets.actions.accept') }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const input = page.getByRole('textbox', { name: t('chat.input.placeholder') });
    await input.fill(DATA.mariaReply);
    await input.press('Enter');
    await expect.poll(async () => (await outbox(request, connection.id, maria.number)).some((o) => o.body.includes(DATA.mariaReply))).toBe(true);
    const sent = (await outbox(request, connection.id, maria.number)).find((o) => o.body.includes(DATA.mariaReply))!;
    await simulatorAck(request, connection.id, sent.id, 3);
    await expect(page.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: DATA.mariaReply }).getByTestId('ack-3')).toBeVisible();
    await shot(page, '08-ticket-chat');

    await input.fill('/');
    await expect(page.getByTestId('quick-answers')).toBeVisible();
    await shot(page, '09-quick-answers-in-chat');
    await input.fill('');

    await page.getByRole('button', { name: t('tickets.actions.transfer'), exact: true }).click();
    const transfer = page.getByRole('dialog', { name: t('tickets.transfer.title') });
    await expect(transfer).toBeVisible();
    await transfer.getByRole('combobox', { name: t('tickets.transfer.user') }).click();
    await expect(page.getByRole('option', { name: DATA.attendant })).toBeVisible();
    await shot(page, '10-transfer');
    await page.keyboard.press('Escape');
    await transfer.getByRole('button', { name: t('common.cancel') }).click();

    await page.getByRole('button', { name: t('tickets.header.tools') }).click();
    await expect(page.getByTestId('import-export-panel')).toBeVisible();
    await page.getByRole('button', { name: t('chat.tools.email'), exact: true }).click();
    await expect(page.getByRole('dialog', { name: t('chat.emailDialog.title') })).toBeVisible();
    await shot(page, '11-email-conversation');
    await page.getByRole('dialog').getByRole('button', { name: t('common.cancel') }).click();

    await page.getByRole('tab', { name: t('tickets.tabs.closed') }).click();
    await expect(ticketRow(page, pedro.name)).toBeVisible();
    await shot(page, '12-tickets-resolved');

    await page.getByRole('tab', { name: t('tickets.tabs.search') }).click();
    await page.getByPlaceholder(t('tickets.manager.searchPlaceholder')).fill(DATA.search);
    await expect(ticketRow(page, maria.name)).toBeVisible();
    await shot(page, '13-tickets-search');
  });

  await test.step('the simulator', async () => {
    await page.goto(`/simulator?connection=${connection.id}`);
    await page.getByRole('list', { name: t('simulator.customer.known') }).getByText(maria.name).click();
    await expect(page.getByTestId('desk-message').filter({ hasText: DATA.mariaReply })).toBeVisible();
    await shot(page, '14-simulator');
  });

  await test.step('contacts and quick answers', async () => {
    await page.goto('/contacts');
    await expect(page.getByText(DATA.customer)).toBeVisible();
    await shot(page, '15-contacts');
    await page.getByRole('button', { name: t('contacts.importCsv') }).click();
    const dialog = page.getByRole('dialog', { name: t('contacts.csvImport.title') });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(DATA.csv) });
    await expect(dialog.getByText('Beatriz Costa')).toBeVisible();
    await shot(page, '16-contacts-import');
    await dialog.getByRole('button', { name: t('common.cancel') }).click();

    await page.goto('/quickAnswers');
    await expect(page.getByText(DATA.quick[0]!.message)).toBeVisible();
    await shot(page, '17-quick-answers');
  });

  await test.step('the tools', async () => {
    // A bulk send to other customers (it would be the last message of the tickets above).
    const campaign = await api<{ id: number }>(request, token, 'POST', '/api/campaigns', {
      kind: 'text',
      whatsappId: connection.id,
      numbers: ['5511987650111', '5511987650112', '5511987650113'].join('\n'),
      message: DATA.campaign,
      minInterval: 0,
      maxInterval: 1,
    });
    await expect
      .poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/campaigns/${campaign.id}`)).status, { timeout: 90_000 })
      .toBe('done');
    await page.goto('/ZDG');
    await expect(page.getByTestId('campaign-history')).toBeVisible();
    await page.getByTestId('campaign-history').getByRole('row', { name: new RegExp(`^${campaign.id} `) }).click();
    await expect(page.getByTestId('campaign-status')).toBeVisible();
    await shot(page, '18-bulk-text');

    await page.goto('/ZDGMedia2');
    await expect(page.getByLabel(t('campaigns.fields.path'))).toBeVisible();
    await shot(page, '19-bulk-media-path');

    await page.goto('/ZDGGroups');
    await expect(page.getByText(t('groups.groupCount_other', { count: DATA.groups.length }))).toBeVisible();
    await shot(page, '20-groups');

    await page.goto('/ZDGAgendamento');
    await expect(page.getByTestId('schedules-table')).toContainText(DATA.schedule);
    await shot(page, '21-schedules');

    await page.goto('/ZDGHistorico');
    await expect(page.getByRole('button', { name: t('historyImport.start') })).toBeVisible();
    await shot(page, '22-history-import');

    await page.goto('/ZDGChatbot');
    await expect(page.getByText(t('chatbot.notConfigured'))).toBeVisible();
    await shot(page, '23-chatbot');

    await page.goto('/SMS');
    await expect(page.getByTestId('outreach-sms')).toBeVisible();
    await shot(page, '24-sms');
  });

  await test.step('administration', async () => {
    await page.goto('/settings');
    await expect(page.getByTestId('setting-userCreation')).toBeVisible();
    await shot(page, '25-settings');
    await page.getByTestId('setting-attendantTools').scrollIntoViewIfNeeded();
    await shot(page, '26-settings-attendants');

    await page.goto('/queues');
    await expect(page.getByText(DATA.sales)).toBeVisible();
    await shot(page, '27-queues');

    await page.goto('/users');
    await expect(page.getByText(DATA.attendant)).toBeVisible();
    await shot(page, '28-users');

    await page.getByRole('button', { name: t('aria.userMenu') }).click();
    await expect(page.getByRole('menuitem', { name: t('layout.help') })).toBeVisible();
    await shot(page, '29-user-menu');
  });
});
