import { expect, test } from '@playwright/test';
import { shot } from './support/tickets';

/** Issue 34 item 3: the interactive API reference, served by the desk from its own origin, readable by anyone. */
test.describe('the API reference', () => {
  test('/api/reference lists the operations of /api/docs, grouped by module, without signing in', async ({ page }) => {
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && url.protocol.startsWith('http')) outside.push(request.url());
    });
    const blocked: string[] = [];
    page.on('pageerror', (error) => blocked.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    for (const size of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await page.goto('/api/reference');
      await expect(page.getByRole('heading', { name: /WA Desk API/ })).toBeVisible();
      // Every module of the API, folded.
      for (const tag of ['Auth', 'Tickets', 'Messages', 'Contacts', 'Quick_answers', 'Bulk_sends', 'Send_API', 'Webhooks']) {
        await expect(page.locator(`#operations-tag-${tag}`)).toBeVisible();
      }
      await shot(page, `api-reference-${size.width}`);
    }
    await page.locator('#operations-tag-Quick_answers').click();
    await expect(page.locator('.opblock-summary-path').filter({ hasText: '/api/quickAnswers' }).first()).toBeVisible();
    // One operation opened: its schema is there.
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.locator('#operations-Quick_answers-createQuickAnswer .opblock-summary').click();
    await expect(page.locator('#operations-Quick_answers-createQuickAnswer')).toContainText('shortcut');
    await shot(page, 'api-reference-operation');
    expect(outside).toEqual([]);
    expect(blocked).toEqual([]);
  });
});
