import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { api, apiLogin, createUser, unique } from './support/api';
import { shot } from './support/tickets';

/** Issue 37 §1: two-factor sign-in, from the user menu, the login page, the users table and Settings. */

function codeAt(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, '')), digits: 6, period: 30 }).generate({ timestamp: at });
}

/** Turns two-factor sign-in on through the API: its secret and recovery codes. */
async function enableByApi(request: APIRequestContext, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await api<{ uri: string }>(request, token, 'POST', '/api/auth/mfa/setup');
  const secret = new URL(setup.uri).searchParams.get('secret')!;
  const { recoveryCodes } = await api<{ recoveryCodes: string[] }>(request, token, 'POST', '/api/auth/mfa/enable', { code: codeAt(secret, Date.now()) });
  return { secret, recoveryCodes };
}

/** Both steps through the API: the access token. */
async function apiLoginWithCode(request: APIRequestContext, email: string, password: string, code: string): Promise<string> {
  const first = await request.post('/api/auth/login', { data: { email, password } });
  expect(first.status()).toBe(401);
  const { mfaToken } = (await first.json()) as { mfaToken: string };
  const second = await request.post('/api/auth/mfa', { data: { mfaToken, code } });
  expect(second.status(), await second.text()).toBe(200);
  return ((await second.json()) as { token: string }).token;
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/^(e-?mail|correo)/i).fill(email);
  await page.getByLabel(/^(password|senha|contraseña)$/i).fill(password);
  await page.getByRole('button', { name: /^(enter|entrar|ingresar)$/i }).click();
}

async function openUserMenu(page: Page) {
  await page.getByRole('button', { name: /^(user menu|menu do usuário|menú de usuario)$/i }).click();
}

async function logout(page: Page) {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: /^(logout|sair|cerrar sesión)$/i }).click();
  await page.waitForURL('**/login');
}

test('[en 1280] a user turns two-factor sign-in on, signs in with a code and with a recovery code, and turns it off', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const user = await createUser(request);
  await passwordStep(page, user.email, user.password);
  await page.waitForURL('**/tickets**');

  await openUserMenu(page);
  await page.getByTestId('menu-two-factor').click();
  const dialog = page.getByTestId('mfa-dialog');
  await expect(dialog.getByTestId('mfa-status-off')).toBeVisible();
  await dialog.getByTestId('mfa-start').click();
  await expect(dialog.getByTestId('mfa-qr')).toBeVisible();
  const secret = (await dialog.getByTestId('mfa-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot(page, 'mfa-setup-en');
  // A wrong code is refused and nothing is on yet.
  await dialog.getByTestId('mfa-code').fill('000000');
  await dialog.getByTestId('mfa-enable').click();
  await expect(page.getByText(/Invalid or already used code/)).toBeVisible();
  await dialog.getByTestId('mfa-code').fill(codeAt(secret, Date.now()));
  await dialog.getByTestId('mfa-enable').click();
  const codes = dialog.getByTestId('mfa-recovery-codes').locator('li');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allInnerTexts();
  await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  await shot(page, 'mfa-recovery-en');
  await dialog.getByTestId('mfa-done').click();
  await expect(dialog).toBeHidden();

  // Sign in again: the password, then the code (the next step's: the one just used is never accepted twice).
  await logout(page);
  await passwordStep(page, user.email, user.password);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await page.getByLabel('Code').fill(codeAt(secret, Date.now() + 30_000));
  await shot(page, 'mfa-login-en');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/tickets**');

  // A recovery code, once.
  await logout(page);
  await passwordStep(page, user.email, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/tickets**');
  const reused = await request.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  const { mfaToken } = (await reused.json()) as { mfaToken: string };
  expect((await request.post('/api/auth/mfa', { data: { mfaToken, code: recoveryCodes[0] } })).status()).toBe(401);

  // Off: the password and a code, confirmed.
  await openUserMenu(page);
  await page.getByTestId('menu-two-factor').click();
  await expect(dialog.getByTestId('mfa-status-on')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByTestId('mfa-code').fill(recoveryCodes[1]!);
  await dialog.getByTestId('mfa-disable').click();
  await page.getByRole('dialog', { name: 'Turn off two-factor sign-in?' }).getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog).toBeHidden();
  await apiLogin(request, user.email, user.password);
});

test('[pt 390] an admin resets a user\'s second factor, requires it for admins, and a new admin sets it up first', async ({ page, request }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'pt'));

  const lost = await createUser(request, { name: `Perdeu ${unique()}` });
  await enableByApi(request, await apiLogin(request, lost.email, lost.password));
  const chief = await createUser(request, { name: `Chefe ${unique()}`, profile: 'admin' });
  const chiefMfa = await enableByApi(request, await apiLogin(request, chief.email, chief.password));
  const chiefToken = await apiLoginWithCode(request, chief.email, chief.password, chiefMfa.recoveryCodes[9]!);
  const newcomer = await createUser(request, { name: `Novo ${unique()}`, profile: 'admin' });

  try {
    // The chief signs in with a recovery code.
    await passwordStep(page, chief.email, chief.password);
    await page.getByRole('button', { name: 'Usar um código de recuperação' }).click();
    await page.getByLabel('Código de recuperação').fill(chiefMfa.recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.waitForURL('**/tickets**');

    // Reset the second factor of a user who lost their phone.
    await page.goto('/users');
    await page.getByLabel('Pesquisar').fill(lost.name);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    const reset = page.getByRole('button', { name: `redefinir a verificação em duas etapas de ${lost.name}` });
    await reset.click();
    const confirm = page.getByRole('dialog', { name: `Redefinir a verificação em duas etapas de ${lost.name}?` });
    await expect(confirm).toBeVisible();
    await shot(page, 'mfa-reset-pt');
    await confirm.getByRole('button', { name: 'Redefinir' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('mfa-reset')).toHaveCount(0);
    await apiLogin(request, lost.email, lost.password);

    // Require it for admins.
    await page.goto('/settings');
    await page.getByTestId('setting-mfaRequiredForAdmins').click();
    await page.getByRole('option', { name: 'Habilitado' }).click();
    await expect(page.getByTestId('setting-mfaRequiredForAdmins')).toContainText('Habilitado');
    await page.getByTestId('setting-mfaRequiredForAdmins').scrollIntoViewIfNeeded();
    await shot(page, 'mfa-setting-pt');
    await logout(page);

    // An admin without it: the set-up comes before anything else.
    await passwordStep(page, newcomer.email, newcomer.password);
    const required = page.getByTestId('mfa-required');
    await expect(required).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeVisible();
    await expect(required.getByTestId('mfa-qr')).toBeVisible();
    await shot(page, 'mfa-required-pt');
    const secret = (await required.getByTestId('mfa-secret').innerText()).replace(/\s+/g, '');
    await required.getByTestId('mfa-code').fill(codeAt(secret, Date.now()));
    await required.getByTestId('mfa-enable').click();
    await expect(required.getByTestId('mfa-recovery-codes').locator('li')).toHaveCount(10);
    await required.getByTestId('mfa-done').click();
    await expect(page.getByTestId('mfa-required')).toBeHidden();
    await expect(page.getByRole('button', { name: 'menu do usuário' })).toBeVisible();
  } finally {
    await api(request, chiefToken, 'PUT', '/api/settings/mfaRequiredForAdmins', { value: 'disabled' });
  }
});
