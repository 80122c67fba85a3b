import { expect, test, type Page } from '@playwright/test';
import { uiLogin } from './support/api.js';

/**
 * Issue 9 (web part): the access token lives in memory only. After sign-in and a reload nothing
 * token-like is in localStorage or sessionStorage, and the httpOnly refresh cookie keeps the user in.
 */

/** Every key and value of both web storages. */
async function webStorage(page: Page): Promise<{ key: string; value: string }[]> {
  return page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((s) =>
      Array.from({ length: s.length }, (_, i) => {
        const key = s.key(i) ?? '';
        return { key, value: s.getItem(key) ?? '' };
      }),
    ),
  );
}

function expectNoToken(entries: { key: string; value: string }[]): void {
  for (const { key, value } of entries) {
    expect(key, 'a token-like key in web storage').not.toMatch(/token|jwt|auth/i);
    // A JWT starts with the base64url of '{"' (eyJ).
    expect(value, `a JWT stored under ${key}`).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  }
}

test('after sign-in and reload no token is in web storage and the user is still signed in', async ({ page, context }) => {
  await uiLogin(page);
  expectNoToken(await webStorage(page));

  await page.reload();
  await expect(page).toHaveURL(/\/tickets/);
  await expect(page.getByTestId('drawer')).toBeVisible();
  expectNoToken(await webStorage(page));

  // The refresh cookie is httpOnly and scoped to the auth routes; no other cookie holds a token.
  const cookies = await context.cookies();
  for (const cookie of cookies) {
    if (/eyJ|token|refresh/i.test(`${cookie.name}=${cookie.value}`)) {
      expect(cookie.httpOnly, `${cookie.name} is httpOnly`).toBe(true);
      expect(cookie.path).toBe('/api/auth');
    }
  }
});

test('a token left in web storage by an older version is removed at start-up', async ({ page }) => {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem('token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.stale');
    sessionStorage.setItem('accessToken', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.stale');
  });
  await page.goto('/login');
  await expect(page.getByLabel(/^e-?mail/i)).toBeVisible();
  const entries = await webStorage(page);
  expect(entries.map((e) => e.key)).not.toContain('token');
  expect(entries.map((e) => e.key)).not.toContain('accessToken');
  expectNoToken(entries);
});
