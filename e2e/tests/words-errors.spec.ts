import { expect, test, type Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { ADMIN, api, apiLogin, connectedSimulator, createUser, uiLogin, unique } from './support/api';
import { serveSmtp } from './support/smtp';
import { shot } from './support/tickets';

/** Issue 33, words and errors: what the user reads when something is wrong (items 13 and 19). */

/** An SMTP server that offers AUTH and refuses everyone: the e-mail settings' failures. */
const smtp = new SMTPServer({
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  onAuth(_auth, _session, callback) {
    callback(new Error('Invalid username or password'));
  },
  logger: false,
});
const smtpServer = serveSmtp(smtp);

const WIDTHS = [1280, 390] as const;

async function inLanguage(page: Page, lng: 'en' | 'pt', width: number): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lng);
  await page.setViewportSize({ width, height: 900 });
}

const TEXTS = {
  en: {
    sender: 'E-mail sender',
    invalidEmail: 'Invalid email',
    testButton: 'Send a test e-mail',
    authRefused: 'The e-mail was not sent. The e-mail server refused the user or password: check them in Settings.',
    openSettings: 'Open Settings',
    signupClosed: 'Accounts are created by the administrator.',
    signupLink: "Don't have an account? Sign up!",
    addUser: 'Add user',
    fields: ['Name', 'Email', 'Password'],
    emailTaken: 'A user with this e-mail already exists.',
    deleteUser: 'delete',
    addQueue: 'Add queue',
    customColor: 'Custom color',
    badColor: 'Type a colour like #1273DE, or pick one',
  },
  pt: {
    sender: 'Remetente de e-mail',
    invalidEmail: 'Email inválido',
    testButton: 'Enviar e-mail de teste',
    authRefused: 'O servidor de e-mail recusou o usuário ou a senha: confira-os em Configurações.',
    openSettings: 'Abrir Configurações',
    signupClosed: 'As contas são criadas pelo administrador.',
    signupLink: 'Não tem uma conta? Cadastre-se!',
    addUser: 'Adicionar usuário',
    fields: ['Nome', 'Email', 'Senha'],
    emailTaken: 'e-mail',
    deleteUser: 'excluir',
    addQueue: 'Adicionar fila',
    customColor: 'Cor personalizada',
    badColor: 'Digite uma cor como #1273DE ou escolha uma',
  },
} as const;

test.describe('issue 33 item 13: errors in the words of the field', () => {
  test.beforeAll(async ({ request }) => {
    const token = await apiLogin(request);
    for (const [key, value] of [
      ['emailHost', '127.0.0.1'],
      ['emailPort', String(smtpServer.port())],
      ['emailSecure', 'none'],
      ['emailUser', 'desk'],
      ['emailPass', ''],
      ['emailFrom', 'desk@example.com'],
      ['emailTo', 'boss@example.com'],
    ]) {
      await api(request, token, 'PUT', `/api/settings/${key}`, { value });
    }
  });

  for (const lng of ['en', 'pt'] as const) {
    for (const width of WIDTHS) {
      test(`${lng} ${width}px: a refused setting says why under the field and keeps the value; a failed test e-mail says why, with a link to Settings`, async ({ page, request }) => {
        const text = TEXTS[lng];
        await inLanguage(page, lng, width);
        await uiLogin(page);
        await page.goto('/settings');
        const sender = page.getByRole('textbox', { name: text.sender });
        await sender.fill('not-an-email');
        await sender.press('Enter');
        // Under the field, in the user's language; the value typed stays (nothing reverts).
        await expect(sender).toHaveAttribute('aria-invalid', 'true');
        await expect(sender).toHaveAccessibleDescription(text.invalidEmail);
        await expect(sender).toHaveValue('not-an-email');
        await expect(page.getByText(/value:|Invalid input/)).toHaveCount(0);
        const token = await apiLogin(request);
        const saved = await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings');
        expect(saved.find((s) => s.key === 'emailFrom')?.value).toBe('desk@example.com');
        await sender.scrollIntoViewIfNeeded();
        await shot(page, `words-13-setting-${lng}-${width}`);

        // The SMTP server asks for a password none is set for: nodemailer's 'Missing credentials for "PLAIN"'.
        await page.getByRole('button', { name: text.testButton }).click();
        const result = page.getByTestId('email-test-result');
        await expect(result).toContainText(text.authRefused);
        await expect(result).not.toContainText(/PLAIN|credentials/);
        await expect(result.getByRole('link', { name: text.openSettings })).toHaveAttribute('href', '/settings');
        await result.scrollIntoViewIfNeeded();
        await shot(page, `words-13-email-test-${lng}-${width}`);
        await sender.fill('desk@example.com');
        await sender.press('Enter');
        await expect(sender).not.toHaveAttribute('aria-invalid', 'true');
      });
    }
  }
});

test.describe('issue 33 item 19: sign-up, users and queues', () => {
  test('the login page offers sign-up only while it is open, and says who creates accounts otherwise', async ({ browser, request }) => {
    const token = await apiLogin(request);
    const before = (await api<{ key: string; value: string }[]>(request, token, 'GET', '/api/settings')).find((s) => s.key === 'userCreation')?.value ?? 'disabled';
    try {
      await api(request, token, 'PUT', '/api/settings/userCreation', { value: 'disabled' });
      for (const [lng, width] of [['en', 1280], ['pt', 390], ['pt', 1280], ['en', 390]] as const) {
        const page = await browser.newPage();
        await inLanguage(page, lng, width);
        await page.goto('/login');
        await expect(page.getByTestId('auth-note')).toHaveText(TEXTS[lng].signupClosed);
        await expect(page.getByRole('link', { name: TEXTS[lng].signupLink })).toHaveCount(0);
        await shot(page, `words-19-login-closed-${lng}-${width}`);
        await page.close();
      }
      await api(request, token, 'PUT', '/api/settings/userCreation', { value: 'enabled' });
      const page = await browser.newPage();
      await page.goto('/login');
      await expect(page.getByRole('link', { name: TEXTS.en.signupLink })).toBeVisible();
      await expect(page.getByTestId('auth-note')).toHaveCount(0);
      await page.close();
    } finally {
      await api(request, token, 'PUT', '/api/settings/userCreation', { value: before });
    }
  });

  for (const lng of ['en', 'pt'] as const) {
    for (const width of WIDTHS) {
      test(`${lng} ${width}px: no delete on the admin's own row; the user form reads Name, E-mail, Password and says a taken e-mail on its field; a queue colour must be a colour`, async ({ page, request }) => {
        const text = TEXTS[lng];
        const colleague = await createUser(request, { name: `Colleague ${unique()}` });
        await inLanguage(page, lng, width);
        await uiLogin(page);
        await page.goto('/users');
        const search = page.getByRole('main').locator('input').first();
        await search.fill(ADMIN.email);
        const own = page.getByTestId('user-row').filter({ hasText: ADMIN.email });
        await expect(own).toHaveCount(1);
        await expect(own.getByRole('button', { name: new RegExp(`^${text.deleteUser} `) })).toHaveCount(0);
        await search.fill(colleague.name);
        const other = page.getByTestId('user-row').filter({ hasText: colleague.name });
        await expect(other.getByRole('button', { name: `${text.deleteUser} ${colleague.name}` })).toBeVisible();
        await shot(page, `words-19-users-${lng}-${width}`);

        await page.getByRole('button', { name: text.addUser }).click();
        const modal = page.getByTestId('user-modal');
        const labels = await modal.locator('input:not([type=hidden]):not([aria-hidden=true])').evaluateAll((inputs) =>
          inputs.map((input) => (input as HTMLInputElement).labels?.[0]?.textContent?.replace(/\s*\*$/, '').trim() ?? ''),
        );
        expect(labels.slice(0, 3)).toEqual(text.fields);
        await modal.getByLabel(text.fields[0], { exact: true }).fill('Someone New');
        await modal.getByLabel(text.fields[1], { exact: true }).fill(ADMIN.email);
        await modal.getByLabel(text.fields[2], { exact: true }).fill('another-pass-1');
        await modal.locator('button[type=submit]').click();
        const email = modal.getByLabel(text.fields[1], { exact: true });
        await expect(email).toHaveAttribute('aria-invalid', 'true');
        await expect(email).toHaveAccessibleDescription(new RegExp(text.emailTaken));
        await shot(page, `words-19-user-duplicate-${lng}-${width}`);
        await page.keyboard.press('Escape');

        await page.goto('/queues');
        await page.getByRole('button', { name: text.addQueue }).click();
        const colour = page.getByRole('textbox', { name: text.customColor, exact: true });
        await colour.fill('banana');
        await page.getByRole('dialog').locator('button[type=submit]').click();
        await expect(colour).toHaveAccessibleDescription(text.badColor);
        await shot(page, `words-19-queue-colour-${lng}-${width}`);
      });
    }
  }
});

test.describe('issue 33 item 18: a batch where every recipient failed', () => {
  for (const [lng, width, failedText] of [['en', 1280, 'Failed'], ['pt', 390, 'Falhou']] as const) {
    test(`${lng} ${width}px: reads "${failedText}" in red with a red bar, as soon as the last recipient is through`, async ({ page, request }) => {
      // The first send waits a random pause of 0–60 s too: done within 75 s means no second pause was waited for.
      test.setTimeout(150_000);
      const connection = await connectedSimulator(request, { name: `Bulk ${unique()}` });
      const token = await apiLogin(request);
      // The simulator's numbers ending in 0000 are not on WhatsApp: the one recipient fails; a minute's pause
      // between sends must not keep the batch "running" after it.
      const created = await api<{ id: number }>(request, token, 'POST', '/api/campaigns', {
        kind: 'text',
        whatsappId: connection.id,
        numbers: '5511955550000',
        message: 'Nobody home',
        minInterval: 0,
        maxInterval: 60,
      });
      await inLanguage(page, lng, width);
      await uiLogin(page);
      await page.goto('/ZDG');
      await page.getByTestId('campaign-history').getByRole('row', { name: new RegExp(`^${created.id} `) }).click();
      const status = page.getByTestId('campaign-status');
      await expect(status).toHaveText(failedText, { timeout: 75_000 });
      await expect(status).toHaveAttribute('data-outcome', 'failed');
      await expect(status).toHaveCSS('background-color', 'rgb(211, 47, 47)');
      await expect(page.getByTestId('campaign-panel').getByRole('progressbar')).toHaveAttribute('data-outcome', 'failed');
      await page.getByTestId('campaign-panel').scrollIntoViewIfNeeded();
      await shot(page, `words-18-failed-${lng}-${width}`);
    });
  }
});
