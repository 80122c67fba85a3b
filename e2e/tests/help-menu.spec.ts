import { expect, test, type Page } from '@playwright/test';
import { createUser, uiLogin } from './support/api';
import { shot } from './support/tickets';

/** A picture of the guide's page has arrived and been decoded (the pictures load lazily: it is scrolled to first). */
async function expectPictureShown(page: Page): Promise<void> {
  const picture = page.locator('main img').first();
  await picture.scrollIntoViewIfNeeded();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
}

/**
 * Issue 34 item 6: the user menu's Help opens the user guide the desk serves at /guide/ (docs/guide), in the user's
 * language: Portuguese for Portuguese, English for the others (decision 0036). The e2e server has no GUIDE_URL: the
 * address it would put instead is checked by guide-link.test.ts.
 */
test.describe('the user menu offers Help', () => {
  for (const { lng, menu, help, logout, guide, title } of [
    { lng: 'en', menu: 'user menu', help: 'Help', logout: 'Logout', guide: 'en', title: 'WA Desk user guide' },
    { lng: 'pt', menu: 'menu do usuário', help: 'Ajuda', logout: 'Sair', guide: 'pt', title: 'Guia do usuário do WA Desk' },
    { lng: 'es', menu: 'menú de usuario', help: 'Ayuda', logout: 'Cerrar sesión', guide: 'en', title: 'WA Desk user guide' },
  ]) {
    test(`in ${lng}: Help opens the ${guide} guide in a new tab, with its pictures, for an admin and an attendant`, async ({ page, request }) => {
      await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lng);
      const attendant = await createUser(request);
      for (const who of ['admin', 'attendant'] as const) {
        if (who === 'admin') await uiLogin(page);
        else await uiLogin(page, attendant.email, attendant.password);
        await page.getByRole('button', { name: menu }).click();
        const entry = page.getByRole('menuitem', { name: help });
        await expect(entry).toHaveAttribute('href', `/guide/${guide}/`);
        await expect(entry).toHaveAttribute('target', '_blank');
        await expect(entry).toHaveAttribute('rel', /noopener/);
        const [guidePage] = await Promise.all([page.waitForEvent('popup'), entry.click()]);
        await expect(guidePage).toHaveURL(new RegExp(`/guide/${guide}/$`));
        await expect(guidePage.getByRole('heading', { level: 1 })).toHaveText(title);
        await expect(guidePage).toHaveTitle(title);
        await expectPictureShown(guidePage);
        await guidePage.close();
        // Signed out, so that the attendant signs in next.
        await page.getByRole('button', { name: menu }).click();
        await page.getByRole('menuitem', { name: logout }).click();
        await expect(page).toHaveURL(/\/login$/);
      }
    });
  }
});

test.describe('the user guide the desk serves', () => {
  test('is read without signing in: its contents lead to a page, the language link to the same page in the other language', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto('/guide/pt/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Guia do usuário do WA Desk');
    await page.getByRole('main').getByRole('link', { name: 'A tela de atendimentos' }).click();
    await expect(page).toHaveURL(/\/guide\/pt\/atendimentos\.md$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('A tela de atendimentos');
    await expectPictureShown(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'guide-pt-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'guide-pt-390');

    await page.getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/guide\/en\/tickets\.md$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The tickets screen');
    await expectPictureShown(page);
    await shot(page, 'guide-en-390-picture');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'guide-en-1280');

    await page.getByRole('link', { name: 'Contents' }).click();
    await expect(page).toHaveURL(/\/guide\/en\/$/);
    await page.getByRole('main').getByRole('link', { name: 'Administration' }).click();
    // A link to another page's section, by the anchor GitHub gives its heading.
    await page.getByRole('main').getByRole('link', { name: 'First steps' }).click();
    await expect(page).toHaveURL(/\/guide\/en\/first-steps\.md#connect-a-whatsapp-number$/);
    await expect(page.getByRole('heading', { name: 'Connect a WhatsApp number' })).toBeInViewport();
    await page.getByRole('link', { name: 'Back to the desk' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
