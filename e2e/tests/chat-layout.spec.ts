import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, unique } from './support/api';
import { openTicket, setLanguage, signInToChat } from './support/chat';
import { shot } from './support/tickets';

/**
 * The header is one row: every button in it sits on the same line, once the layout has settled (measured right after
 * a resize, the buttons were once caught on two rows mid-reflow).
 */
async function expectHeaderOneRow(page: Page) {
  const header = page.getByTestId('ticket-header');
  await expect(async () => {
    const tops = await header.locator('button:visible').evaluateAll((buttons) =>
      buttons.map((b) => {
        const r = b.getBoundingClientRect();
        return Math.round(r.top + r.height / 2);
      }),
    );
    expect(tops.length).toBeGreaterThan(2);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(2);
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(72);
  }).toPass({ timeout: 5_000 });
}

async function width(page: Page, testId: string): Promise<number> {
  return (await page.getByTestId(testId).boundingBox())!.width;
}

test.describe('issue 33 item 1: the chat keeps a width to type in beside the contact panel', () => {
  test('at 1280 and 1440 px the panel sits beside the chat and the list gives way; at 1024 px it is a drawer over the chat; at 1680 px all three stay', async ({ page, request }) => {
    test.setTimeout(150_000);
    const ticket = await openTicket(request);
    await signInToChat(page, ticket.id);

    for (const lng of ['en', 'pt'] as const) {
      await setLanguage(page, lng);
      for (const viewport of [1280, 1440]) {
        await page.setViewportSize({ width: viewport, height: 800 });
        await expect(page.getByTestId('tickets-column')).toBeVisible();
        await page.getByTestId('ticket-header').getByRole('button').nth(1).click();
        const panel = page.getByTestId('contact-drawer');
        await expect(panel).toBeVisible();
        // Beside the chat, not over it; the ticket list gives way.
        await expect(page.getByTestId('tickets-column')).toBeHidden();
        const chat = (await page.getByTestId('chat-view').boundingBox())!;
        expect((await panel.boundingBox())!.x).toBeGreaterThanOrEqual(chat.x + chat.width - 1);
        expect(chat.width).toBeGreaterThanOrEqual(640);
        expect(await width(page, 'message-box')).toBeGreaterThanOrEqual(360);
        await expectHeaderOneRow(page);
        await shot(page, `chat-layout-${viewport}-panel-${lng}`);
        await page.getByTestId('contact-drawer-close').click();
        await expect(panel).toBeHidden();
        await expect(page.getByTestId('tickets-column')).toBeVisible();
        await expectHeaderOneRow(page);
      }

      // A laptop: the chat shares the row with the list only; the panel is a drawer over it.
      await page.setViewportSize({ width: 1024, height: 768 });
      await expectHeaderOneRow(page);
      expect(await width(page, 'message-box')).toBeGreaterThanOrEqual(220);
      await page.getByTestId('ticket-header').getByRole('button').nth(1).click();
      await expect(page.getByTestId('contact-drawer')).toBeVisible();
      await expect(page.getByTestId('tickets-column')).toBeVisible();
      await expect(page.locator('.MuiDrawer-modal')).toBeVisible();
      await shot(page, `chat-layout-1024-panel-${lng}`);
      await page.getByTestId('contact-drawer-close').click();
      await expect(page.getByTestId('contact-drawer')).toBeHidden();

      // A phone: the chat alone, the header one row, the text box wide enough.
      await page.setViewportSize({ width: 390, height: 844 });
      await expectHeaderOneRow(page);
      expect(await width(page, 'message-box')).toBeGreaterThanOrEqual(180);
      await shot(page, `chat-layout-390-${lng}`);
    }

    // A wide screen keeps the list, the chat and the panel side by side.
    await page.setViewportSize({ width: 1680, height: 900 });
    await page.getByTestId('ticket-header').getByRole('button').nth(1).click();
    await expect(page.getByTestId('contact-drawer')).toBeVisible();
    await expect(page.getByTestId('tickets-column')).toBeVisible();
    expect(await width(page, 'chat-view')).toBeGreaterThanOrEqual(560);
    await expectHeaderOneRow(page);
    await shot(page, 'chat-layout-1680-panel-pt');
  });
});

test.describe('issue 33 item 5: quick answers', () => {
  test('typing / lists the shortcuts that start with the text first, then those that contain it', async ({ page, request }) => {
    test.setTimeout(90_000);
    const ticket = await openTicket(request);
    const admin = await apiLogin(request);
    const u = `q${unique()}`;
    // Alphabetically the two others come first: the order shown must come from where the text is found.
    await api(request, admin, 'POST', '/api/quickAnswers', { shortcut: `ab${unique()}`, message: `Mentions ${u} in the text` });
    await api(request, admin, 'POST', '/api/quickAnswers', { shortcut: `a${u}pix`, message: 'Our PIX key' });
    await api(request, admin, 'POST', '/api/quickAnswers', { shortcut: `${u}prazo`, message: 'Delivery in 3 days' });
    await signInToChat(page, ticket.id);
    await page.getByTestId('message-box').locator('textarea').first().fill(`/${u}`);
    const list = page.getByTestId('quick-answers');
    await expect(list.getByRole('option')).toHaveCount(3);
    const shortcuts = await list.getByRole('option').evaluateAll((options) => options.map((o) => o.querySelector('.MuiListItemText-primary')?.textContent));
    expect(shortcuts[0]).toBe(`/${u}prazo`);
    expect(shortcuts[1]).toBe(`/a${u}pix`);
    await shot(page, 'chat-quick-answers-en');
  });
});

test.describe('issue 33 item 7: the emoji picker', () => {
  test('loads when opened, from our own origin; searches, shows categories and the emoji used last, in the bundled Twemoji font', async ({ page, request, baseURL }) => {
    test.setTimeout(120_000);
    const ticket = await openTicket(request);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await signInToChat(page, ticket.id);
    // Nothing of the picker before it is opened.
    expect(requests.filter((url) => /emoji-panel|twemoji|\/data-[^/]*\.json/.test(url))).toEqual([]);

    const font = page.waitForResponse((r) => /twemoji[^/]*\.woff2/.test(r.url()) && r.ok());
    await page.getByRole('button', { name: 'emoji' }).click();
    const picker = page.getByTestId('emoji-panel').locator('emoji-picker');
    await expect(picker.getByRole('tab')).toHaveCount(9);
    await font;
    // Drawn with the bundled font, whatever the machine has.
    const family = await picker.getByRole('menuitem').first().evaluate((b) => getComputedStyle(b).fontFamily);
    expect(family).toContain('Twemoji');
    await shot(page, 'chat-emoji-picker-en');

    await picker.getByRole('combobox').fill('pizza');
    const pizza = picker.getByRole('option', { name: /pizza/i }).first();
    await expect(pizza).toBeVisible();
    await shot(page, 'chat-emoji-search-en');
    await pizza.click();
    await expect(page.getByTestId('message-box').locator('textarea').first()).toHaveValue('🍕');

    // The emoji used last comes first in the favourites, after a reload too (kept in the browser's IndexedDB).
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByRole('button', { name: 'emoji' }).click();
    const favourites = page.getByTestId('emoji-panel').locator('emoji-picker').getByRole('menu', { name: 'Favorites' });
    await expect(favourites.getByRole('menuitem').first()).toHaveText('🍕');
    await page.keyboard.press('Escape');

    // In Portuguese, on a phone.
    await setLanguage(page, 'pt');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'emoji' }).click();
    const again = page.getByTestId('emoji-panel').locator('emoji-picker');
    await expect(again.getByRole('tab')).toHaveCount(9);
    await expect(again.getByRole('combobox')).toHaveAttribute('placeholder', /Pesquis|Buscar|Procurar/);
    await shot(page, 'chat-emoji-picker-pt-390');

    // No CDN: every request went to our own origin.
    expect(requests.filter((url) => !url.startsWith(baseURL!) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
  });
});
