import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, connectedSimulator, contactWrites, uiLogin, unique } from './support/api';
import { openTab, shot, ticketRow, tinyWav, uniqueNumber } from './support/tickets';

/** The words these tests look for, in English and Portuguese. */
const WORDS = {
  en: { search: /^Search$/, searchPlaceholder: 'Search tickets and messages', queue: /Queue/, inbox: /Inbox/, resolved: /Resolved/, resolve: 'Resolve', reopen: 'Reopen', accept: 'Accept', voice: 'Voice message', automatic: 'Automatic message', resolvedBy: /^Resolved by /, reopenedBy: /^Reopened by /, acceptedBy: /^Accepted by / },
  pt: { search: /^Busca$/, searchPlaceholder: 'Pesquisar tickets e mensagens', queue: /Aguardando/, inbox: /Entrada/, resolved: /Resolvidos/, resolve: 'Resolver', reopen: 'Reabrir', accept: 'Aceitar', voice: 'Mensagem de voz', automatic: 'Mensagem automática', resolvedBy: /^Resolvido por /, reopenedBy: /^Reaberto por /, acceptedBy: /^Aceito por / },
} as const;

const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.4 e2e').toString('base64')}`;

async function inLanguage(page: Page, lng: 'en' | 'pt') {
  await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lng);
}

for (const lng of ['en', 'pt'] as const) {
  const w = WORDS[lng];

  test(`[${lng}] search ignores accents and shows the matching message; voice notes and documents read as such`, async ({ page, request }) => {
    const token = await apiLogin(request);
    const connection = await connectedSimulator(request);
    const tag = unique();
    const joao = `João Acento ${tag}`;
    await contactWrites(request, connection.id, { from: uniqueNumber(), name: joao, body: 'Bom dia! Recebi o pedido, mas faltou uma peça. Fico em casa até sábado de manhã, pode ser?' });
    const voiceName = `Voz ${tag}`;
    await api(request, token, 'POST', `/api/simulator/${connection.id}/inbound`, { from: uniqueNumber(), name: voiceName, mediaType: 'audio', mediaUrl: tinyWav(), duration: 12 });
    const docName = `Documento ${tag}`;
    await contactWrites(request, connection.id, { from: uniqueNumber(), name: docName, mediaType: 'document', mediaUrl: PDF });

    await inLanguage(page, lng);
    await uiLogin(page);
    await openTab(page, w.queue);
    await expect(ticketRow(page, voiceName).getByTestId('last-message')).toHaveText(`🎤 ${w.voice} (0:12)`);
    await expect(ticketRow(page, docName).getByTestId('last-message')).toHaveText(/^📎 \S+\.pdf$/);
    await shot(page, `h5-${lng}-previews`);

    await openTab(page, w.search);
    const search = page.getByPlaceholder(w.searchPlaceholder);
    await search.fill('sabado de manha');
    const row = ticketRow(page, joao);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('search-snippet').locator('strong')).toHaveText('sábado de manhã');
    await expect(row.getByTestId('search-snippet')).toContainText('até sábado de manhã');
    await shot(page, `h5-${lng}-search-snippet`);

    await search.fill(`joao acento ${tag.toLowerCase()}`);
    await expect(ticketRow(page, joao)).toBeVisible();
  });

  test(`[${lng}] the chat shows accepted, resolved and reopened lines and marks the farewell as automatic`, async ({ page, request }) => {
    const connection = await connectedSimulator(request, { farewellMessage: `Obrigado pelo contato! ${unique()}` });
    const name = `Linha do tempo ${unique()}`;
    await contactWrites(request, connection.id, { from: uniqueNumber(), name, body: 'Olá, preciso de ajuda' });

    await inLanguage(page, lng);
    await uiLogin(page);
    await openTab(page, w.queue);
    await ticketRow(page, name).getByRole('button', { name: w.accept }).click();
    await page.waitForURL(/\/tickets\/\d+$/);
    const ticketUrl = page.url();
    const list = page.getByTestId('messages-list');
    await expect(list.getByTestId('timeline-event').filter({ hasText: w.acceptedBy })).toBeVisible();

    await page.getByRole('button', { name: w.resolve, exact: true }).click();
    await page.waitForURL(/\/tickets$/);
    await page.goto(ticketUrl);
    await expect(list.getByTestId('timeline-event').filter({ hasText: w.resolvedBy })).toBeVisible();
    const farewell = list.locator('[data-testid="message"][data-sender-kind="auto"]');
    await expect(farewell).toContainText('Obrigado pelo contato!');
    await expect(farewell.getByTestId('automatic-label')).toHaveText(w.automatic);

    await page.getByRole('button', { name: w.reopen, exact: true }).click();
    await expect(list.getByTestId('timeline-event').filter({ hasText: w.reopenedBy })).toBeVisible();
    await expect(list.getByTestId('timeline-event').filter({ hasText: w.resolvedBy })).toBeVisible();
    // In order: accepted, resolved, reopened.
    expect(await list.getByTestId('timeline-event').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['accepted', 'resolved', 'reopened']);
    await shot(page, `h5-${lng}-timeline`);
  });
}
