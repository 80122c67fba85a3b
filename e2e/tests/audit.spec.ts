import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { api, apiLogin, createUser, uiLogin, unique } from './support/api';
import { setLanguage } from './support/chat';
import { shot } from './support/tickets';

/**
 * The audit log (issue 37 §2): an admin opens /audit from the drawer, sees who changed a queue and a failed
 * sign-in, filters by action, expands a row to its before → after, exports the filtered entries as CSV (the export
 * is recorded too); the page at 390 px in Portuguese; an attendant neither sees the entry nor reaches the page (access denied).
 */
test('audit log: who did what, filtered, expanded, exported; admins only', async ({ page, request }) => {
  test.setTimeout(180_000);
  const admin = await apiLogin(request);
  const suffix = unique();
  const queue = await api<{ id: number; name: string }>(request, admin, 'POST', '/api/queue', {
    name: `Audit ${suffix}`,
    color: `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`,
    greetingMessage: '',
  });
  await api(request, admin, 'PUT', `/api/queue/${queue.id}`, { greetingMessage: `Welcome ${suffix}` });
  const failed = await request.post('/api/auth/login', { data: { email: `intruder-${suffix}@e2e.local`, password: 'wrong-password-1' } });
  expect(failed.status()).toBe(401);
  // A colleague who signs in: the user filter finds their entry and nobody else's.
  const colleague = await createUser(request, { name: `Audited ${suffix}` });
  await apiLogin(request, colleague.email, colleague.password);

  await page.setViewportSize({ width: 1280, height: 800 });
  await uiLogin(page);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();
  // Newest first: the admin's own sign-in (by the login page) is above the failed one.
  await expect(rows.filter({ hasText: 'Sign-in failed' }).filter({ hasText: `intruder-${suffix}@e2e.local` })).toBeVisible();
  await expect(rows.first().getByTestId('audit-action')).toHaveText('Signed in');

  // Filter by action: only the queue changes; the one of this test expands to its greeting before → after.
  await page.getByLabel('Action').click();
  await page.getByRole('option', { name: 'Queue changed' }).click();
  await expect(rows.first().getByTestId('audit-action')).toHaveText('Queue changed');
  await expect(page.getByTestId('audit-action').filter({ hasNotText: 'Queue changed' })).toHaveCount(0);
  const changed = rows.filter({ hasText: String(queue.id) }).first();
  await changed.getByTestId('audit-expand').click();
  const changes = page.getByTestId('audit-changes').first();
  await expect(changes).toContainText('greetingMessage');
  await expect(changes).toContainText(`Welcome ${suffix}`);
  await expect(changed.getByTestId('audit-who')).toHaveText('Admin');
  await page.mouse.move(640, 780);
  await shot(page, 'audit-log-en');

  // The CSV export of the filtered entries, itself recorded.
  const download = page.waitForEvent('download');
  await page.getByTestId('audit-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('audit-log.csv');
  const csv = await readFile((await file.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toContain('at,actorKind,userId,userName,ip,action,targetType,targetId,before,after');
  expect(csv).toContain('queue.update');
  expect(csv).not.toContain('auth.login_failed');
  await expect
    .poll(async () => (await api<{ entries: { action: string }[] }>(request, admin, 'GET', '/api/audit?action=audit.export')).entries.length)
    .toBeGreaterThan(0);

  // A period without entries: the empty state.
  await page.getByTestId('audit-filter-from').fill('2001-01-01');
  await page.getByTestId('audit-filter-to').fill('2001-01-02');
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows.first()).toBeVisible();

  // Filter by user: only the colleague's entries (their sign-in).
  await page.getByLabel('User', { exact: true }).click();
  await page.getByRole('option', { name: colleague.name, exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('audit-who')).toHaveText(colleague.name);
  await expect(rows.first().getByTestId('audit-action')).toHaveText('Signed in');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows.filter({ hasText: 'Sign-in failed' }).first()).toBeVisible();

  // 390 px: one card per entry.
  await page.setViewportSize({ width: 390, height: 800 });
  await rows.filter({ hasText: 'Sign-in failed' }).first().getByTestId('audit-expand').click();
  await expect(page.getByTestId('audit-changes').first()).toContainText('reason');
  await page.mouse.move(380, 780);
  await shot(page, 'audit-log-en-390');

  // Portuguese at 1280 and 390 px; the drawer is temporary under 600 px.
  await page.setViewportSize({ width: 1280, height: 800 });
  await setLanguage(page, 'pt');
  await page.getByLabel('Ação').click();
  await page.getByRole('option', { name: 'Fila alterada' }).click();
  await rows.filter({ hasText: String(queue.id) }).first().getByTestId('audit-expand').click();
  await page.mouse.move(640, 780);
  await shot(page, 'audit-log-pt');
  await page.getByRole('button', { name: 'Limpar filtros' }).click();
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByRole('heading', { name: 'Auditoria' })).toBeVisible();
  await expect(rows.first()).toBeVisible();
  await rows.filter({ hasText: 'Falha ao entrar' }).first().getByTestId('audit-expand').click();
  await expect(page.getByTestId('audit-changes').first()).toContainText('reason');
  await page.mouse.move(380, 780);
  await shot(page, 'audit-log-pt-390');
  // Under 600 px the drawer is temporary: its entry opens the page.
  await page.getByRole('button', { name: 'abrir menu' }).click();
  await expect(page.getByRole('link', { name: 'Auditoria' })).toBeVisible();
  await shot(page, 'audit-drawer-pt-390');
  await page.getByRole('link', { name: 'Auditoria' }).click();
  await expect(page.getByRole('link', { name: 'Auditoria' })).toBeHidden();
  await setLanguage(page, 'en');
  await page.setViewportSize({ width: 1280, height: 800 });

  // An attendant: no drawer entry, the page says access denied, the API answers 403.
  const attendant = await createUser(request);
  const attendantToken = await apiLogin(request, attendant.email, attendant.password);
  const refused = await request.get('/api/audit', { headers: { authorization: `Bearer ${attendantToken}` } });
  expect(refused.status()).toBe(403);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await uiLogin(page, attendant.email, attendant.password);
  await expect(page.getByRole('link', { name: 'Queues' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await page.goto('/audit');
  await expect(page.getByText('Access denied')).toBeVisible();
  await expect(page.getByTestId('audit-page')).toHaveCount(0);
});
