import { expect, test } from '@playwright/test';
import { createUser, uiLogin } from './support/api';

/** The GUIDE_URL the e2e server runs with (playwright.config.ts). */
const GUIDE = 'https://git.example.com/wadesk/blob/main/docs/guide/{lang}/README.md';

/**
 * Issue 34 item 6: the user menu's Help opens the user guide where GUIDE_URL says it is published, in the user's
 * language (decision 0036).
 */
test.describe('the user menu offers Help', () => {
  for (const { lng, menu, help, logout, guide } of [
    { lng: 'en', menu: 'user menu', help: 'Help', logout: 'Logout', guide: 'en' },
    { lng: 'pt', menu: 'menu do usuário', help: 'Ajuda', logout: 'Sair', guide: 'pt' },
    { lng: 'es', menu: 'menú de usuario', help: 'Ayuda', logout: 'Cerrar sesión', guide: 'en' },
  ]) {
    test(`in ${lng}: Help opens the ${guide} guide in a new tab, for an admin and an attendant`, async ({ page, request }) => {
      await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lng);
      const attendant = await createUser(request);
      for (const who of ['admin', 'attendant'] as const) {
        if (who === 'admin') await uiLogin(page);
        else await uiLogin(page, attendant.email, attendant.password);
        await page.getByRole('button', { name: menu }).click();
        const entry = page.getByRole('menuitem', { name: help });
        await expect(entry).toBeVisible();
        await expect(entry).toHaveAttribute('href', GUIDE.replace('{lang}', guide));
        await expect(entry).toHaveAttribute('target', '_blank');
        await expect(entry).toHaveAttribute('rel', /noopener/);
        // Signed out, so that the attendant signs in next.
        await page.getByRole('menuitem', { name: logout }).click();
        await expect(page).toHaveURL(/\/login$/);
      }
    });
  }
});
