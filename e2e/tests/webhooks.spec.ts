import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { api, apiLogin, uiLogin, unique } from './support/api';
import { setLanguage } from './support/chat';
import { shot, uniqueNumber } from './support/tickets';

/**
 * Outgoing webhooks (issue 37 §3): an admin adds a webhook on the Webhooks page (URL, events, the secret made in the
 * browser), the desk's events reach a receiver on loopback signed with that secret, the test button and the delivery
 * log (with Send again) work, the page reads in Portuguese and at 390 px, and the webhook is deleted after a
 * confirmation.
 */

interface Received {
  id: string;
  event: string;
  data: Record<string, any>;
  valid: boolean;
}

function startReceiver(secret: () => string) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const timestamp = String(req.headers['x-desk-timestamp']);
      const expected = `sha256=${createHmac('sha256', secret()).update(`${timestamp}.${raw}`).digest('hex')}`;
      const body = JSON.parse(raw) as Omit<Received, 'valid'>;
      got.push({ ...body, valid: req.headers['x-desk-signature'] === expected });
      res.writeHead(200).end();
    });
  });
  return { got, server };
}

test('webhooks: add one, receive signed events, test it, read the log and send again, delete it', async ({ page, request }) => {
  test.setTimeout(180_000);
  let secret = '';
  const { got, server } = startReceiver(() => secret);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/desk-events`;
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await uiLogin(page);

    // The Webhooks page, from the drawer (admins only): empty at first.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhooks yet.', { exact: false })).toBeVisible();

    // Add: a URL that is not http(s) is refused under the field; the secret is there to copy before saving.
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const modal = page.getByTestId('webhook-modal');
    await modal.getByLabel('URL').fill('ftp://example.com/x');
    await modal.getByLabel('Contact created').check();
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(modal.getByText('Type an address starting with http:// or https://')).toBeVisible();
    await modal.getByLabel('URL').fill(url);
    secret = await modal.getByRole('textbox', { name: 'Secret' }).inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await modal.getByRole('button', { name: 'New secret' }).click();
    await expect(modal.getByRole('textbox', { name: 'Secret' })).not.toHaveValue(secret);
    secret = await modal.getByRole('textbox', { name: 'Secret' }).inputValue();
    await shot(page, 'webhooks-modal-en');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(modal).toBeHidden();
    const row = page.getByTestId('webhook-row').filter({ hasText: url });
    await expect(row).toBeVisible();
    await expect(row).toContainText('On');
    await expect(row).toContainText('Contact created');

    // The desk's events reach the receiver, signed with that secret.
    const token = await apiLogin(request);
    const name = `Webhook contact ${unique()}`;
    await api(request, token, 'POST', '/api/contacts', { name, number: uniqueNumber() });
    await expect.poll(() => got.filter((r) => r.event === 'contact.created' && r.data.contact?.name === name).length, { timeout: 20_000 }).toBe(1);
    expect(got.every((r) => r.valid)).toBe(true);

    // The test button: delivered, the receiver's answer in the toast.
    await row.getByRole('button', { name: `send a test to ${url}` }).click();
    await expect(page.getByText('Test delivered: the receiver answered 200')).toBeVisible();
    expect(got.at(-1)).toMatchObject({ event: 'webhook.test', valid: true });

    // The delivery log: each delivery delivered with 200; Send again gives the receiver the same event id.
    await row.getByRole('button', { name: `delivery log of ${url}` }).click();
    const log = page.getByTestId('webhook-deliveries');
    await expect(log.getByTestId('webhook-delivery')).toHaveCount(2);
    await expect(log.getByTestId('delivery-status').first()).toHaveText('Delivered');
    await shot(page, 'webhooks-log-en');
    const created = log.getByTestId('webhook-delivery').filter({ hasText: 'Contact created' });
    await created.getByRole('button', { name: /^send delivery \d+ again$/ }).click();
    await expect(page.getByText('Sent again')).toBeVisible();
    await expect.poll(() => got.filter((r) => r.event === 'contact.created' && r.data.contact?.name === name).length, { timeout: 20_000 }).toBe(2);
    const ids = got.filter((r) => r.event === 'contact.created' && r.data.contact?.name === name).map((r) => r.id);
    expect(ids[0]).toBe(ids[1]);
    await expect(log.getByTestId('webhook-delivery')).toHaveCount(3, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Close' }).click();
    await shot(page, 'webhooks-page-en');

    // In Portuguese, and at 390 px (the drawer is temporary there; the table keeps URL and actions).
    await setLanguage(page, 'pt');
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Adicionar webhook' })).toBeVisible();
    await expect(row).toContainText('Ligado');
    await shot(page, 'webhooks-page-pt');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row.getByRole('button', { name: `editar ${url}` })).toBeVisible();
    await shot(page, 'webhooks-page-390-pt');
    await row.getByRole('button', { name: `registro de entregas de ${url}` }).click();
    await expect(page.getByTestId('webhook-deliveries').getByTestId('delivery-status').first()).toHaveText('Entregue');
    await shot(page, 'webhooks-log-390-pt');
    await page.getByRole('button', { name: 'Fechar' }).click();

    // Delete, after a confirmation that names the address.
    await setLanguage(page, 'en');
    await page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole('button', { name: `delete ${url}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`${url} will get no more events`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(row).toBeHidden();
    await expect(page.getByText('No webhooks yet.', { exact: false })).toBeVisible();
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
