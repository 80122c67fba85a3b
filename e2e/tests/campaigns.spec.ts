import { expect, test } from '@playwright/test';
import { api, apiLogin, connectedSimulator, createUser, uiLogin, unique } from './support/api';
import { shot } from './support/tickets';

/** Issue 12: a bulk send runs on the server; the page shows its progress wherever the attendant went meanwhile. */
test.describe('bulk sends', () => {
  test('an attendant starts a 10-number send on /ZDG, goes to another page, comes back and sees 10 / 10', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Bulk ${unique()}` });
    const attendant = await createUser(request);
    const base = 5511970000000 + (Date.now() % 1_000_000) * 10;
    const numbers = Array.from({ length: 10 }, (_, i) => String(base + i));

    await uiLogin(page, attendant.email, attendant.password);
    await page.getByRole('link', { name: 'Bulk text' }).click();
    await page.waitForURL('**/ZDG');
    await expect(page.getByTestId('campaign-none')).toBeVisible();

    // The live count flags a bad line as it is typed.
    await page.getByTestId('campaign-numbers').fill([...numbers, 'call me'].join('\n'));
    await expect(page.getByTestId('campaign-line-count')).toHaveText('10 valid numbers, 1 invalid lines');
    await expect(page.getByTestId('campaign-invalid-lines')).toContainText('Line 11 (call me): not a phone number');
    await page.getByTestId('campaign-numbers').fill(numbers.join('\n'));
    await expect(page.getByTestId('campaign-line-count')).toHaveText('10 valid numbers, 0 invalid lines');

    await page.getByLabel('Connection').click();
    await page.getByRole('option', { name: new RegExp(connection.name) }).click();
    await page.getByLabel('Message').fill('Oferta da semana: 10% off');
    await page.getByLabel('Minimum pause (s)').fill('0');
    await page.getByLabel('Maximum pause (s)').fill('1');
    await page.getByTestId('campaign-send').click();
    await expect(page.getByText('Sending to 10 numbers')).toBeVisible();
    await expect(page.getByTestId('campaign-panel')).toBeVisible();

    // Away while it sends: the server goes on.
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.waitForURL('**/contacts');
    await page.waitForTimeout(1500);
    await page.getByRole('link', { name: 'Bulk text' }).click();
    await page.waitForURL('**/ZDG');

    await expect(page.getByTestId('campaign-progress')).toHaveText('10 / 10', { timeout: 30_000 });
    await expect(page.getByTestId('campaign-status')).toHaveText('Done');
    await expect(page.getByTestId('campaign-recipients').locator('tr[data-status="sent"]')).toHaveCount(10);
    await shot(page, 'campaigns-01-done');

    // The simulated phone sent each number exactly one message, in order.
    const admin = await apiLogin(request);
    const outbox = await api<{ to: string; body: string }[]>(request, admin, 'GET', `/api/simulator/${connection.id}/outbox`);
    expect(outbox.filter((e) => numbers.includes(e.to)).map((e) => e.to)).toEqual(numbers);
  });

  test('refuses to start without a message, naming the field, and starts nothing', async ({ page, request }) => {
    const admin = await apiLogin(request);
    const count = async () => (await api<{ campaigns: unknown[] }>(request, admin, 'GET', '/api/campaigns')).campaigns.length;
    const before = await count();
    await uiLogin(page);
    await page.goto('/ZDG');
    await page.getByTestId('campaign-numbers').fill('5511987650001');
    await page.getByTestId('campaign-send').click();
    await expect(page.getByTestId('campaign-form').getByText('Required')).toBeVisible();
    await page.waitForTimeout(500);
    expect(await count()).toBe(before);
  });
});
