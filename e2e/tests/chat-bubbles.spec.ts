import { expect, test, type Page } from '@playwright/test';
import { connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import { openTab, shot, ticketRow, uniqueNumber } from './support/tickets';

/** Issue 33, the chat bubbles and previews: what the attendant reads, in English and Portuguese, on a phone and a laptop. */
const WORDS = {
  en: { queue: /Queue/, view: 'View', readMore: 'Read more' },
  pt: { queue: /Aguardando/, view: 'Espiar', readMore: 'Ler mais' },
} as const;

const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } } as const;

async function inLanguage(page: Page, lng: 'en' | 'pt') {
  await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lng);
}

/** Opens the waiting ticket of a contact (View, which reads it without accepting). */
async function viewTicket(page: Page, lng: 'en' | 'pt', name: string) {
  await openTab(page, WORDS[lng].queue);
  await ticketRow(page, name).getByRole('button', { name: WORDS[lng].view }).click();
  await page.waitForURL(/\/tickets\/\d+$/);
}

for (const lng of ['en', 'pt'] as const) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`[${lng} ${size}] item 2: links, WhatsApp formatting at word boundaries, long texts fold`, async ({ page, request }) => {
      const connection = await connectedSimulator(request);
      const name = `Formatos ${unique()}`;
      const from = uniqueNumber();
      await contactWrites(request, connection.id, {
        from,
        name,
        body: 'Veja *negrito* _itálico_ ~riscado~ ```mono``` e 2*3*4 em https://example.com/my_file_name.pdf ok',
      });
      const long = `Começo ${'lorem ipsum dolor sit amet '.repeat(370)}FIM-DO-TEXTO`;
      expect(long.length).toBeGreaterThan(10_000);
      await contactWrites(request, connection.id, { from, name, body: long });

      await page.setViewportSize(viewport);
      await inLanguage(page, lng);
      await uiLogin(page);
      await viewTicket(page, lng, name);
      const list = page.getByTestId('messages-list');
      const formatted = list.getByTestId('message-body').filter({ hasText: 'negrito' });
      await expect(formatted.locator('strong')).toHaveText('negrito');
      await expect(formatted.locator('em')).toHaveText('itálico');
      await expect(formatted.locator('s')).toHaveText('riscado');
      await expect(formatted.locator('code')).toHaveText('mono');
      // 2*3*4 is not bold; the address keeps its underscores and opens in a new tab.
      await expect(formatted).toContainText('2*3*4');
      await expect(formatted.locator('strong')).toHaveCount(1);
      const link = formatted.getByRole('link', { name: 'https://example.com/my_file_name.pdf' });
      await expect(link).toHaveAttribute('href', 'https://example.com/my_file_name.pdf');
      await expect(link).toHaveAttribute('target', '_blank');

      const folded = list.getByTestId('message').filter({ hasText: 'Começo' });
      await expect(folded.getByTestId('message-body')).toHaveAttribute('data-folded', 'true');
      expect((await folded.boundingBox())!.height).toBeLessThan(400);
      await expect(folded).not.toContainText('FIM-DO-TEXTO');
      await shot(page, `h1-${lng}-${size}-item2-folded`);
      await folded.getByRole('button', { name: WORDS[lng].readMore }).click();
      await expect(folded).toContainText('FIM-DO-TEXTO');
      await expect(folded.getByTestId('message-body')).not.toHaveAttribute('data-folded', 'true');
      expect((await folded.boundingBox())!.height).toBeGreaterThan(1000);
      await formatted.scrollIntoViewIfNeeded();
      await shot(page, `h1-${lng}-${size}-item2-formatting`);
    });
  }
}
