import { expect, test } from '@playwright/test';
import { FakeOutreachServer } from '../../apps/server/src/test/fakes/outreach-server';
import { api, apiLogin, createUser, uiLogin, withAttendantTools } from './support/api';
import { shot } from './support/tickets';

/**
 * Vonage's SMS API and Meta's Graph API on loopback, on E2E_PORT + 1 (playwright.config.ts points VONAGE_REST_URL
 * and INSTAGRAM_GRAPH_URL at it): it checks the credentials and the request's shape.
 */
const port = Number(process.env.E2E_PORT ?? 8181) + 1;
const fake = new FakeOutreachServer({
  apiKey: 'e2e-key',
  apiSecret: 'e2e-secret',
  instagramAccountId: '17841400000000009',
  instagramToken: 'e2e-ig-token',
  refuses: (to) => to.endsWith('0666'),
});
const received = fake.received;

test.beforeAll(async ({ request }) => {
  await fake.start(port);
  const token = await apiLogin(request);
  for (const [key, value] of [
    ['vonageApiKey', 'e2e-key'],
    ['vonageApiSecret', 'e2e-secret'],
    ['instagramAccountId', '17841400000000009'],
    ['instagramAccessToken', 'e2e-ig-token'],
  ]) {
    await api(request, token, 'PUT', `/api/settings/${key}`, { value });
  }
});
test.afterAll(async () => {
  await fake.stop();
});

/** Issue 16: SMS and Instagram direct batches, one recipient at a time (1 s apart here, 5 s in production). */
test.describe('SMS, voice calls and Instagram direct', () => {
  test('an SMS batch of 3 shows its progress and each outcome', async ({ page }) => {
    await uiLogin(page);
    await page.getByRole('link', { name: 'SMS' }).click();
    await page.waitForURL('**/SMS');
    await page.getByLabel('Sender').fill('WaDesk');
    await page.getByTestId('outreach-recipients').fill('+55 11 91234-0001\n5511912340002\n5511912340666');
    await expect(page.getByText('3 recipients')).toBeVisible();
    await page.getByTestId('outreach-text').fill('Sua consulta é amanhã às 10h');
    await page.getByTestId('outreach-send').click();
    await expect(page.getByTestId('outreach-progress')).toHaveText(/^[0-2] \/ 3$/);
    await expect(page.getByTestId('outreach-progress')).toHaveText('3 / 3', { timeout: 20_000 });
    await expect(page.getByTestId('outreach-status')).toHaveText('Done');
    const rows = page.getByTestId('outreach-items').locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('5511912340001');
    await expect(rows.nth(0)).toContainText('Sent');
    await expect(rows.nth(0)).toContainText(/sms-\d+/);
    await expect(rows.nth(2)).toContainText('Failed');
    await expect(rows.nth(2)).toContainText('Status 6: Unroutable message - rejected');
    expect(received.filter((r) => r.path === '/sms/json').map((r) => [r.body.to, r.body.from, r.body.text])).toEqual([
      ['5511912340001', 'WaDesk', 'Sua consulta é amanhã às 10h'],
      ['5511912340002', 'WaDesk', 'Sua consulta é amanhã às 10h'],
      ['5511912340666', 'WaDesk', 'Sua consulta é amanhã às 10h'],
    ]);
    await expect(page.getByTestId('outreach-history').locator('tbody tr')).toHaveCount(1);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'outreach-01-sms');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'outreach-02-sms-phone');
  });

  test('an Instagram send to 2 recipients; the page says replies need the webhook', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));
    await uiLogin(page);
    await page.goto('/InstaDirect');
    await expect(page.getByText(/As respostas não chegam aqui/)).toBeVisible();
    await page.getByTestId('outreach-recipients').fill('1784100001\nnão-é-id');
    await expect(page.getByText('Inválido: linha 2')).toBeVisible();
    await expect(page.getByTestId('outreach-send')).toBeDisabled();
    await page.getByTestId('outreach-recipients').fill('1784100001\n1784100002');
    await page.getByTestId('outreach-text').fill('Promoção de hoje!');
    await page.getByTestId('outreach-send').click();
    await expect(page.getByTestId('outreach-progress')).toHaveText('2 / 2', { timeout: 20_000 });
    await expect(page.getByTestId('outreach-status')).toHaveText('Concluído');
    await expect(page.getByTestId('outreach-items').locator('tbody tr').filter({ hasText: 'Enviado' })).toHaveCount(2);
    const graph = received.filter((r) => r.path.endsWith('/messages')).map((r) => r.body);
    expect(graph).toEqual([
      { recipient: { id: '1784100001' }, message: { text: 'Promoção de hoje!' } },
      { recipient: { id: '1784100002' }, message: { text: 'Promoção de hoje!' } },
    ]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'outreach-03-instagram-pt');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'outreach-04-instagram-pt-phone');
  });

  test('a failing provider shows its reason on the page', async ({ page, request }) => {
    const token = await apiLogin(request);
    await api(request, token, 'PUT', '/api/settings/instagramAccessToken', { value: 'expired' });
    await uiLogin(page);
    await page.goto('/InstaDirect');
    await page.getByTestId('outreach-recipients').fill('1784100003');
    await page.getByTestId('outreach-text').fill('Oi');
    await page.getByTestId('outreach-send').click();
    await expect(page.getByTestId('outreach-progress')).toHaveText('1 / 1', { timeout: 20_000 });
    await expect(page.getByTestId('outreach-items')).toContainText('401: Invalid OAuth access token');
    await api(request, token, 'PUT', '/api/settings/instagramAccessToken', { value: 'e2e-ig-token' });
    // Voice calls without an application: the page says which settings are missing.
    await page.goto('/VoiceCall');
    await page.getByLabel('Sender').fill('5511900000000');
    await page.getByTestId('outreach-recipients').fill('5511912340001');
    await page.getByTestId('outreach-text').fill('Olá');
    await page.getByTestId('outreach-send').click();
    await expect(page.getByTestId('outreach-error')).toContainText('This channel is not configured');
    await shot(page, 'outreach-05-voice-error');
  });

  test('attendants have the SMS, voice and Instagram pages by default, and none of them once attendantTools leaves them out', async ({ page, request }) => {
    const attendant = await createUser(request);
    await uiLogin(page, attendant.email, attendant.password);
    for (const name of ['Instagram direct', 'SMS', 'Voice calls']) await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
    await withAttendantTools(request, 'bulk,schedules', async () => {
      await page.reload();
      await expect(page.getByRole('link', { name: 'Bulk text' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'SMS', exact: true })).toHaveCount(0);
      await page.goto('/SMS');
      await page.waitForURL((url) => url.pathname === '/');
    });
  });
});
