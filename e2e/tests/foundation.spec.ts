import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, createUser, uiLogin, unique } from './support/api.js';

/**
 * Issue 2 (foundation) in Chromium through the real UI: sign-up and sign-in, the public / private
 * redirects of §2, the drawer and top bar, admin-only items (§6) and the server's refusal, the users
 * and settings pages, the language choice and the phone-width drawer.
 */

/** With E2E_SHOTS=<dir>, saves a screenshot of a key state there (to look at what a user sees). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Closes a toast with its close button (toasts open at the bottom left, clear of the top bar). */
async function closeToast(page: Page, text: string): Promise<void> {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await toast.getByRole('button', { name: 'close' }).click();
  await expect(toast).toHaveCount(0);
}

const drawerLink = (page: Page, name: string) => page.getByTestId('drawer').getByRole('link', { name, exact: true });

test.describe('sign up and sign in', () => {
  test('signs up on /signup, then signs in with the new account and lands on /tickets', async ({ page, request }) => {
    // Sign-up is off on a fresh install: the admin opens it first (Settings › userCreation).
    await api(request, await apiLogin(request), 'PUT', '/api/settings/userCreation', { value: 'enabled' });
    const id = unique();
    const email = `signup-${id}@e2e.local`;
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(`Signed Up ${id}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('signup-pass-1');
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page.getByText('Sign-up received: if the e-mail was not registered yet, your account is ready. Please login.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    // The sign-up form has an Email field too: type once the login page shows (on a slow machine its chunk was still
    // loading when the e-mail went into the leaving sign-up form, and the sign-in was refused with "Required").
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('signup-pass-1');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText('Login successful!')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Inbox' })).toBeVisible();
  });

  test('the login page links to sign-up and back', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: "Don't have an account? Sign up!" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.getByRole('link', { name: 'Already have an account? Log in!' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signs in and lands on /tickets; a signed-in user opening /login goes to /', async ({ page, request }) => {
    const user = await createUser(request);
    await uiLogin(page, user.email, user.password);
    await expect(page.getByRole('tab', { name: 'Inbox' })).toBeVisible();
    await shot(page, 'tickets-after-login');

    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('dashboard')).toContainText(`Welcome, ${user.name}!`);
  });

  test('logout goes to /login and the session is gone', async ({ page, request }) => {
    const user = await createUser(request);
    await uiLogin(page, user.email, user.password);
    await closeToast(page, 'Login successful!');
    await page.getByRole('button', { name: 'user menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The refresh cookie was revoked: a reload does not bring the session back.
    await page.goto('/tickets');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a private route while signed out goes to /login', async ({ page }) => {
    await page.goto('/users');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  });

  test('the password show/hide toggle works', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    const toggle = page.getByRole('button', { name: 'show password' });
    await password.fill('secret-123');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await toggle.click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue('secret-123');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');

    await toggle.click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('a wrong password shows the translated error toast and stays on /login', async ({ page, request }) => {
    const user = await createUser(request);
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page.getByText('Authentication error. Please try again.')).toBeVisible();
    await shot(page, 'login-wrong-password');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('roles', () => {
  test('an admin sees Users, Queues and Settings, and edits a user in the modal', async ({ page, request }) => {
    const user = await createUser(request);
    const newName = `Edited ${unique()}`;
    await uiLogin(page);

    for (const name of ['Users', 'Queues', 'Settings']) await expect(drawerLink(page, name)).toBeVisible();
    await drawerLink(page, 'Users').click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();

    // Narrow the table to the user (search needs 3+ characters, debounced).
    await page.getByLabel('Search').fill(user.email);
    const row = page.getByTestId('users-table').getByTestId('user-row').filter({ hasText: user.email });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await expect(row).toContainText(user.name);
    await row.getByRole('button', { name: `edit ${user.name}` }).click();

    const modal = page.getByTestId('user-modal');
    await expect(page.getByRole('dialog', { name: 'Edit user' })).toBeVisible();
    const name = modal.getByLabel('Name', { exact: true });
    await expect(name).toHaveValue(user.name);
    // Admin-only fields are offered to an admin.
    await expect(modal.getByRole('combobox', { name: 'Profile' })).toBeVisible();
    await shot(page, 'user-modal-edit');
    await name.fill(newName);
    await modal.getByRole('button', { name: 'Save' }).click();

    await expect(page.getByText('User saved successfully')).toBeVisible();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(row).toContainText(newName);
    await expect(row.getByRole('button', { name: `edit ${newName}` })).toBeVisible();

    // The server kept it.
    const token = await apiLogin(request);
    const saved = await api<{ name: string }>(request, token, 'GET', `/api/users/${user.id}`);
    expect(saved.name).toBe(newName);
  });

  test('a user sees no admin items, the server refuses them, and /users shows no permission', async ({ page, request }) => {
    const user = await createUser(request, { profile: 'user' });
    await uiLogin(page, user.email, user.password);

    const drawer = page.getByTestId('drawer');
    await expect(drawerLink(page, 'Tickets')).toBeVisible();
    await expect(drawerLink(page, 'Contacts')).toBeVisible();
    for (const name of ['Users', 'Queues', 'Settings']) await expect(drawerLink(page, name)).toHaveCount(0);
    await expect(drawer.getByText('Administration')).toHaveCount(0);

    // The server enforces the role, whatever the client shows (GET /api/users answers colleagues without e-mail).
    const token = await apiLogin(request, user.email, user.password);
    const colleagues = await request.get('/api/users', { headers: { authorization: `Bearer ${token}` } });
    const { users } = (await colleagues.json()) as { users: object[] };
    for (const colleague of users) expect(Object.keys(colleague).sort()).toEqual(['id', 'name', 'queues']);
    for (const [method, url, data] of [
      ['POST', '/api/queue', { name: `Nope ${unique()}`, color: '#123456' }],
      ['POST', '/api/users', { name: 'Nope', email: `nope-${unique()}@e2e.local`, password: 'nope-pass', profile: 'admin' }],
      ['PUT', '/api/settings/userCreation', { value: 'disabled' }],
    ] as const) {
      const res = await request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
      expect(res.status(), `${method} ${url}`).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe('ERR_NO_PERMISSION');
    }

    await page.goto('/users');
    await expect(page.getByTestId('no-permission')).toBeVisible();
    await expect(page.getByTestId('no-permission')).toContainText("You don't have permission to access this resource.");
    await expect(page.getByTestId('users-table')).toHaveCount(0);
    await page.goto('/settings');
    await expect(page.getByTestId('no-permission')).toBeVisible();
    await expect(page.getByTestId('settings')).toHaveCount(0);
  });

  test("a user's Profile menu opens the own-user modal without admin fields", async ({ page, request }) => {
    const user = await createUser(request, { profile: 'user' });
    await uiLogin(page, user.email, user.password);
    await closeToast(page, 'Login successful!');
    await page.getByRole('button', { name: 'user menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    const modal = page.getByTestId('user-modal');
    await expect(page.getByRole('dialog', { name: 'My profile' })).toBeVisible();
    await expect(modal.getByLabel('Name', { exact: true })).toHaveValue(user.name);
    await expect(modal.getByRole('combobox', { name: 'Profile' })).toHaveCount(0);
    await expect(modal.getByRole('combobox', { name: 'Queues' })).toHaveCount(0);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  });
});

test.describe('language', () => {
  test('switching to Portuguese and then Spanish changes the UI texts', async ({ page, request }) => {
    const user = await createUser(request);
    await uiLogin(page, user.email, user.password);
    await expect(page.getByRole('tab', { name: 'Inbox' })).toBeVisible();
    await expect(drawerLink(page, 'Contacts')).toBeVisible();
    await closeToast(page, 'Login successful!');

    // English → Portuguese (pt.json).
    await page.getByRole('button', { name: 'language' }).click();
    await page.getByRole('menuitem', { name: 'Português' }).click();
    await expect(page.getByRole('tab', { name: 'Entrada' })).toBeVisible();
    await expect(drawerLink(page, 'Contatos')).toBeVisible();
    await expect(drawerLink(page, 'Conexões')).toBeVisible();
    await expect(drawerLink(page, 'Respostas rápidas')).toBeVisible();
    await expect(page.getByText('Selecione um ticket para começar a conversar.')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await page.getByRole('button', { name: 'menu do usuário' }).click();
    await expect(page.getByRole('menuitem', { name: 'Sair' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Perfil' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await shot(page, 'tickets-portuguese');

    // Portuguese → Spanish (es.json); the aria-label follows the language.
    await page.getByRole('button', { name: 'idioma' }).click();
    await page.getByRole('menuitem', { name: 'Español' }).click();
    await expect(page.getByRole('tab', { name: 'Bandeja' })).toBeVisible();
    await expect(drawerLink(page, 'Contactos')).toBeVisible();
    await expect(drawerLink(page, 'Conexiones')).toBeVisible();
    await expect(drawerLink(page, 'Respuestas rápidas')).toBeVisible();
    await expect(page.getByText('Seleccione un ticket para empezar a conversar.')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.getByRole('button', { name: 'menú de usuario' }).click();
    await expect(page.getByRole('menuitem', { name: 'Cerrar sesión' })).toBeVisible();
    await page.keyboard.press('Escape');

    // The choice survives a reload (stored in the browser).
    await page.reload();
    await expect(drawerLink(page, 'Contactos')).toBeVisible();
  });

  test('the login page can be switched to Portuguese before signing in', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'language' }).click();
    await page.getByRole('menuitem', { name: 'Português' }).click();
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expect(page.getByLabel('Senha', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Não tem uma conta? Cadastre-se!' })).toBeVisible();
    // The wrong-password toast is translated too.
    await page.getByLabel('Email', { exact: true }).fill(`nobody-${unique()}@e2e.local`);
    await page.getByLabel('Senha', { exact: true }).fill('wrong-pass');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByText('Erro de autenticação. Por favor, tente novamente.')).toBeVisible();
  });
});

test.describe('drawer', () => {
  test('at phone width the drawer is temporary: hidden until the menu button opens it, closed after navigating', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const user = await createUser(request);
    await uiLogin(page, user.email, user.password);
    await expect(page.getByRole('tab', { name: 'Inbox' })).toBeVisible();
    await expect(page.getByTestId('drawer')).toBeHidden();
    // At phone width the toast spans the bottom of the screen.
    await closeToast(page, 'Login successful!');

    await page.getByRole('button', { name: 'open drawer' }).click();
    await expect(page.getByTestId('drawer')).toBeVisible();
    await expect(drawerLink(page, 'Tickets')).toBeVisible();
    await shot(page, 'phone-drawer-open');

    await drawerLink(page, 'Contacts').click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
    await expect(page.getByTestId('drawer')).toBeHidden();

    // Opens again, and Escape closes it as well.
    await page.getByRole('button', { name: 'open drawer' }).click();
    await expect(page.getByTestId('drawer')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('drawer')).toBeHidden();
  });

  test('at desktop width the drawer is permanent, 240 px, with no menu button', async ({ page, request }) => {
    const user = await createUser(request);
    await uiLogin(page, user.email, user.password);
    await expect(page.getByTestId('drawer')).toBeVisible();
    await expect(page.getByRole('button', { name: 'open drawer' })).toHaveCount(0);
    // The drawer paper (the nav's parent) is 240 px wide.
    const box = await page.getByTestId('drawer').locator('xpath=..').boundingBox();
    expect(box?.width).toBe(240);
  });
});

test.describe('settings', () => {
  test('an option setting saves with a toast; userApiToken is read-only with a copy button', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const token = await apiLogin(request);
    // acceptCalls does not change what other tests rely on (unlike userCreation).
    const settings = await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings');
    const before = settings.find((s) => s.key === 'acceptCalls')?.value;
    const apiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
    expect(apiToken).not.toBe('');
    const [fromValue, fromLabel, toValue, toLabel] =
      before === 'disabled' ? ['disabled', 'Disabled', 'enabled', 'Enabled'] : ['enabled', 'Enabled', 'disabled', 'Disabled'];

    try {
      await uiLogin(page);
      await drawerLink(page, 'Settings').click();
      await expect(page).toHaveURL(/\/settings$/);
      await expect(page.getByTestId('settings')).toBeVisible();

      const select = page.getByTestId('setting-acceptCalls');
      await expect(select).toContainText(fromLabel);
      await select.click();
      await page.getByRole('option', { name: toLabel, exact: true }).click();
      await expect(page.getByText('Settings saved')).toBeVisible();
      await expect(select).toContainText(toLabel);
      await expect
        .poll(async () => {
          const now = await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings');
          return now.find((s) => s.key === 'acceptCalls')?.value;
        })
        .toBe(toValue);

      // The API token: shown, read-only, copied by its button.
      const tokenField = page.getByLabel('API token', { exact: true });
      await expect(tokenField).toHaveValue(apiToken);
      await expect(tokenField).not.toBeEditable();
      await page.getByRole('button', { name: 'copy token' }).click();
      await expect(page.getByText('Token copied')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiToken);
      await shot(page, 'settings');

      // PUT cannot overwrite it either.
      const res = await request.put('/api/settings/userApiToken', {
        data: { value: 'hacked' },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.ok()).toBe(false);
    } finally {
      await api(request, token, 'PUT', '/api/settings/acceptCalls', { value: fromValue });
    }
  });
});
