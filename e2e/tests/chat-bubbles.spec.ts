import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import { createQueue, openTab, outbox, shot, ticketRow, TINY_PNG, tinyWav, uniqueNumber } from './support/tickets';

/** Issue 33, the chat bubbles and previews: what the attendant reads, in English and Portuguese, on a phone and a laptop. */
const WORDS = {
  en: { queue: /Queue/, view: 'View', readMore: 'Read more', openMap: 'Open in maps', download: 'Download' },
  pt: { queue: /Aguardando/, view: 'Espiar', readMore: 'Ler mais', openMap: 'Abrir no mapa', download: 'Baixar' },
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

/** 3,000 bytes of a PDF: the card says "3 KB" (en) or "3 kB" (pt). */
const PDF = `data:application/pdf;base64,${Buffer.from(`%PDF-1.4 ${'x'.repeat(2991)}`).toString('base64')}`;

for (const lng of ['en', 'pt'] as const) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`[${lng} ${size}] items 6 and 10: a document's name and size, a voice note's length at once, a location's map without a tile server`, async ({ page, request }) => {
      const connection = await connectedSimulator(request);
      const token = await apiLogin(request);
      const name = `Anexos ${unique()}`;
      const from = uniqueNumber();
      await contactWrites(request, connection.id, { from, name, mediaType: 'document', mediaUrl: PDF, body: 'Contrato_assinado_2026.pdf' });
      await api(request, token, 'POST', `/api/simulator/${connection.id}/inbound`, { from, name, mediaType: 'audio', mediaUrl: tinyWav(), duration: 4 });
      await contactWrites(request, connection.id, { from, name, mediaType: 'location', body: '-23.561414,-46.655881|Av. Paulista, 1578 - Bela Vista, São Paulo' });

      const elsewhere: string[] = [];
      page.on('request', (r) => {
        const host = new URL(r.url()).hostname;
        if (!['127.0.0.1', 'localhost'].includes(host) && !r.url().startsWith('data:')) elsewhere.push(r.url());
      });
      await page.setViewportSize(viewport);
      await inLanguage(page, lng);
      await uiLogin(page);
      await viewTicket(page, lng, name);
      const list = page.getByTestId('messages-list');

      const doc = list.getByTestId('document');
      await expect(doc.getByTestId('document-name')).toHaveText('Contrato_assinado_2026.pdf');
      await expect(doc.getByTestId('document-size')).toHaveText(/^PDF · 3 kB$/i);
      await expect(doc.getByRole('link', { name: WORDS[lng].download })).toHaveAttribute('href', /\/api\/media\//);
      // The name is on the card, not repeated as a caption.
      await expect(list.getByTestId('message').filter({ has: doc }).getByTestId('message-body')).toHaveCount(0);

      // The stored length shows before the player has loaded the file.
      await expect(list.getByTestId('audio-duration')).toHaveText('0:04');

      const location = list.getByTestId('location');
      await expect(location.getByTestId('location-map')).toBeVisible();
      await expect(location.getByTestId('location-description')).toHaveText('Av. Paulista, 1578 - Bela Vista, São Paulo');
      await expect(location.getByRole('link', { name: WORDS[lng].openMap })).toHaveAttribute('href', /maps\.google\.com\/maps\?q=-23\.561414%2C-46\.655881/);
      await location.scrollIntoViewIfNeeded();
      await shot(page, `h1-${lng}-${size}-items6-10`);
      expect(elsewhere).toEqual([]);
    });
  }
}

const PREVIEW_WORDS = {
  en: { voice: 'Voice message', deleted: 'This message was deleted', workingOn: /Working on/ },
  pt: { voice: 'Mensagem de voz', deleted: 'Esta mensagem foi apagada', workingOn: /Atendendo/ },
} as const;

for (const lng of ['en', 'pt'] as const) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`[${lng} ${size}] item 4: the row shows what the customer sent, not the greeting after it; a deleted message as deleted`, async ({ page, request }) => {
      const token = await apiLogin(request);
      const queues = [await createQueue(request), await createQueue(request)];
      const greeting = `Olá! Escolha uma fila. ${unique()}`;
      const connection = await connectedSimulator(request, { greetingMessage: greeting, queueIds: queues.map((q) => q.id) });
      const tag = unique();
      const photo = { from: uniqueNumber(), name: `Foto ${tag}` };
      await contactWrites(request, connection.id, { ...photo, mediaType: 'image', mediaUrl: TINY_PNG, body: 'Olha a foto do produto' });
      const voice = { from: uniqueNumber(), name: `Voz ${tag}` };
      await api(request, token, 'POST', `/api/simulator/${connection.id}/inbound`, { ...voice, mediaType: 'audio', mediaUrl: tinyWav(), duration: 4 });
      const place = { from: uniqueNumber(), name: `Lugar ${tag}` };
      await contactWrites(request, connection.id, { ...place, mediaType: 'location', body: '-23.561414,-46.655881' });
      // The greeting and queue menu answered each of them.
      for (const c of [photo, voice, place]) {
        await expect.poll(async () => (await outbox(request, connection.id, c.from)).some((e) => e.body.startsWith(greeting)), { timeout: 15_000 }).toBe(true);
      }

      await page.setViewportSize(viewport);
      await inLanguage(page, lng);
      await uiLogin(page);
      await openTab(page, WORDS[lng].queue);
      await expect(ticketRow(page, photo.name).getByTestId('last-message')).toHaveText('📷 Olha a foto do produto');
      await expect(ticketRow(page, voice.name).getByTestId('last-message')).toHaveText(`🎤 ${PREVIEW_WORDS[lng].voice} (0:04)`);
      await expect(ticketRow(page, place.name).getByTestId('last-message')).toHaveText(lng === 'en' ? '📍 Location' : '📍 Localização');
      await shot(page, `h1-${lng}-${size}-item4-previews`);

      // An attendant's reply, deleted: the row says the message was deleted.
      await viewTicket(page, lng, photo.name);
      const ticketId = Number(/\/tickets\/(\d+)$/.exec(page.url())![1]);
      await api(request, token, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });
      const reply = await api<{ id: number }>(request, token, 'POST', `/api/messages/${ticketId}`, { body: 'Recebi a foto, obrigado!' });
      await api(request, token, 'DELETE', `/api/messages/${reply.id}`);
      await page.goto('/tickets');
      await openTab(page, PREVIEW_WORDS[lng].workingOn);
      await expect(ticketRow(page, photo.name).getByTestId('last-message')).toHaveText(`🚫 ${PREVIEW_WORDS[lng].deleted}`);
      await shot(page, `h1-${lng}-${size}-item4-deleted`);
    });
  }
}

const SEARCH_WORDS = {
  en: { search: /^Search$/, placeholder: 'Search tickets and messages' },
  pt: { search: /^Busca$/, placeholder: 'Pesquisar tickets e mensagens' },
} as const;

for (const lng of ['en', 'pt'] as const) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`[${lng} ${size}] item 3: opening a search hit scrolls the chat to the matched message, on an older page, and highlights it`, async ({ page, request }) => {
      const connection = await connectedSimulator(request);
      const tag = unique();
      const name = `Busca ${tag}`;
      const from = uniqueNumber();
      const word = `ornitorrinco${tag.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
      await contactWrites(request, connection.id, { from, name, body: `Meu pedido do ${word} chegou quebrado, podem trocar?` });
      // Two pages and more after it: the match is on an older page than the one the chat opens with.
      for (let i = 1; i <= 45; i += 1) await contactWrites(request, connection.id, { from, name, body: `Mensagem seguinte número ${i}` });

      await page.setViewportSize(viewport);
      await inLanguage(page, lng);
      await uiLogin(page);
      await openTab(page, SEARCH_WORDS[lng].search);
      await page.getByPlaceholder(SEARCH_WORDS[lng].placeholder).fill(word);
      const row = ticketRow(page, name);
      await expect(row.getByTestId('search-snippet').locator('strong')).toHaveText(word);
      await row.getByRole('button', { name: WORDS[lng].view }).click();
      await page.waitForURL(/\/tickets\/\d+$/);

      const hit = page.getByTestId('messages-list').locator('[data-testid="message"][data-highlighted="true"]');
      await expect(hit).toContainText(word, { timeout: 15_000 });
      await expect(hit).toBeInViewport();
      await expect(page.getByTestId('messages-list').locator('[data-highlighted="true"]')).toHaveCount(1);
      await shot(page, `h1-${lng}-${size}-item3-search-hit`);
    });
  }
}
