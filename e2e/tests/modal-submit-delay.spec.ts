import { expect, test, type Page } from '@playwright/test';
import { uiLogin, unique } from './support/api';

/** How long after the click on its submit button the form's request left (ms). */
async function sendDelay(page: Page, form: string, submit: string, path: RegExp): Promise<number> {
  const clickedAt = Date.now();
  const sent = page.waitForRequest((request) => request.method() === 'POST' && path.test(new URL(request.url()).pathname));
  await page.getByTestId(form).getByRole('button', { name: submit, exact: true }).click();
  await sent;
  return Date.now() - clickedAt;
}

/** Issue 33 item 21, spec §9: the user, contact, sign-up and connection forms wait 400 ms after Submit. */
test.describe('modal submit delay', () => {
  test('the contact and user forms send 400 ms after Add, not before', async ({ page }) => {
    await uiLogin(page);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Add contact' }).click();
    const contact = page.getByTestId('contact-modal');
    await contact.getByLabel('Name').first().fill(`Delay ${unique()}`);
    await contact.getByLabel('Number').fill(`55119${String(Date.now()).slice(-8)}`);
    expect(await sendDelay(page, 'contact-modal', 'Add', /\/api\/contacts$/)).toBeGreaterThanOrEqual(390);
    await expect(contact).toHaveCount(0);

    await page.goto('/users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const user = page.getByTestId('user-modal');
    await user.getByLabel('Name', { exact: true }).fill(`Delay ${unique()}`);
    await user.getByLabel('Email').fill(`delay-${unique()}@e2e.local`);
    await user.getByLabel('Password', { exact: true }).fill('delay-pass-123');
    expect(await sendDelay(page, 'user-modal', 'Add', /\/api\/users\/?$/)).toBeGreaterThanOrEqual(390);
    await expect(user).toHaveCount(0);
  });
});
