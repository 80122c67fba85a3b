import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, createUser, uiLogin, unique } from './support/api';
import { openTab, shot, ticketRow, uniqueNumber } from './support/tickets';

/** The count a tab of the tickets page shows (its badge), once loaded. */
async function tabCount(page: Page, name: RegExp): Promise<number> {
  const tab = page.getByRole('tab', { name });
  await expect(tab.getByTestId('count-loading')).toHaveCount(0);
  return Number(await tab.locator('.MuiBadge-badge').textContent());
}

/** Issue 32 §1 (decision 0029): what a bulk send wrote is in the conversation, and in nobody's Inbox or Queue. */
test.describe('one conversation record', () => {
  test('a bulk send to three numbers leaves Working on and Queue as they were; the reply shows the bulk message right above it', async ({ page, request }) => {
    const connection = await connectedSimulator(request, { name: `Record ${unique()}` });
    const attendant = await createUser(request);
    // As the network writes Brazilian mobiles (55 + area code + 9 + 8 digits), the way bulk sends normalize them.
    const numbers = [uniqueNumber(), uniqueNumber(), uniqueNumber()].map((n) => `55119${n.slice(-8)}`);
    const customer = `Cliente ${unique()}`;

    await uiLogin(page, attendant.email, attendant.password);
    await page.goto('/tickets');
    const before = { working: await tabCount(page, /Working on/), queue: await tabCount(page, /Queue/) };

    await page.goto('/ZDG');
    await page.getByTestId('campaign-numbers').fill(numbers.join('\n'));
    await page.getByLabel('Connection').click();
    await page.getByRole('option', { name: new RegExp(connection.name) }).click();
    await page.getByLabel('Message').fill('Black Friday: 20% off today');
    await page.getByLabel('Minimum pause (s)').fill('0');
    await page.getByLabel('Maximum pause (s)').fill('0');
    await page.getByTestId('campaign-send').click();
    await expect(page.getByTestId('campaign-progress')).toHaveText('3 / 3', { timeout: 30_000 });
    const token = await apiLogin(request, attendant.email, attendant.password);
    const campaignId = (await api<{ campaigns: { id: number }[] }>(request, token, 'GET', '/api/campaigns')).campaigns[0]!.id;

    // Three messages sent and recorded: no tab counts one more (live updates would have come by now).
    await page.goto('/tickets');
    await page.waitForTimeout(1500);
    expect({ working: await tabCount(page, /Working on/), queue: await tabCount(page, /Queue/) }).toEqual(before);

    // One customer answers: their conversation comes to the Queue, with the bulk message right above the answer.
    const admin = await apiLogin(request);
    await api(request, admin, 'POST', `/api/simulator/${connection.id}/inbound`, { from: numbers[1], body: 'Quero o cupom, por favor', name: customer });
    await expect(page.getByRole('tab', { name: /Queue/ }).locator('.MuiBadge-badge')).toHaveText(String(before.queue + 1));
    await openTab(page, /Queue/);
    await ticketRow(page, customer).getByRole('button', { name: 'View' }).click();
    const list = page.getByTestId('messages-list');
    const bulk = list.getByText('Black Friday: 20% off today');
    const reply = list.getByText('Quero o cupom, por favor');
    await expect(bulk).toBeVisible();
    await expect(reply).toBeVisible();
    await expect(list.getByTestId('message-origin').filter({ hasText: `Bulk send #${campaignId}` })).toBeVisible();
    const [above, below] = [(await bulk.boundingBox())!, (await reply.boundingBox())!];
    expect(above.y).toBeLessThan(below.y);
    // Nothing between them: the two are the chat's last two messages.
    const texts = await list.locator('[data-testid="message"]').allInnerTexts();
    expect(texts.slice(-2).map((t) => t.includes('Black Friday') ? 'bulk' : t.includes('Quero o cupom') ? 'reply' : t)).toEqual(['bulk', 'reply']);
    await shot(page, 'conversation-01-bulk-above-reply');
  });
});
