import { expect, test, type Page } from '@playwright/test';
import { openTicket, setLanguage, signInToChat } from './support/chat';

// A fake microphone (a beep) that needs no permission prompt.
test.use({
  permissions: ['microphone'],
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  },
});

/** A screenshot with the toast on it (the `shot` helper closes toasts), when TICKETS_SHOTS names a folder. */
async function toastShot(page: Page, name: string): Promise<void> {
  if (process.env.TICKETS_SHOTS) await page.screenshot({ path: `${process.env.TICKETS_SHOTS}/${name}.png` });
}

test.describe('issue 33 item 8: recording', () => {
  test('encodes the voice note as MP3 in a Web Worker and sends it', async ({ page, request }) => {
    const ticket = await openTicket(request);
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await signInToChat(page, ticket.id);
    await page.getByRole('button', { name: 'record audio' }).click();
    await expect(page.getByTestId('recording-timer')).toHaveText('00:02', { timeout: 10_000 });
    const upload = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(`/api/messages/${ticket.id}`));
    await page.getByRole('button', { name: 'send recording' }).click();
    const response = await upload;
    expect(response.status()).toBeLessThan(300);
    const [message] = (await response.json()) as { mediaType: string; mediaUrl: string }[];
    expect(message.mediaType).toBe('audio');
    expect(message.mediaUrl).toMatch(/\.mp3\?/);
    expect(workers.some((url) => /mp3-encoder/.test(url))).toBe(true);
  });

  test("says in the user's language that there is no microphone, or that access was refused", async ({ page, request }) => {
    const ticket = await openTicket(request);
    // The browser finds no microphone (or refuses it): getUserMedia rejects as Chromium does.
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Requested device not found', localStorage.getItem('e2eMicError') ?? 'NotFoundError'));
    });
    await signInToChat(page, ticket.id);
    await page.getByRole('button', { name: 'record audio' }).click();
    await expect(page.getByText('No microphone found: connect one and allow access.')).toBeVisible();
    await expect(page.getByText('Requested device not found')).toHaveCount(0);
    await toastShot(page, 'chat-no-microphone-en');

    await setLanguage(page, 'pt');
    await page.getByRole('button', { name: 'gravar áudio' }).click();
    await expect(page.getByText('Nenhum microfone encontrado: conecte um e permita o acesso.')).toBeVisible();
    await toastShot(page, 'chat-no-microphone-pt');

    await page.evaluate(() => localStorage.setItem('e2eMicError', 'NotAllowedError'));
    await page.setViewportSize({ width: 390, height: 844 });
    await setLanguage(page, 'es');
    await page.getByRole('button', { name: 'grabar audio' }).click();
    await expect(page.getByText(/^Se denegó el acceso al micrófono/)).toBeVisible();
    await toastShot(page, 'chat-microphone-refused-es-390');
  });
});
