import type { WebhookDeliveryDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { webhooks } from '../../db/schema.js';
import { useTestApp } from '../../test/test-app.js';

// The default: MEDIA_FETCH_PRIVATE unset, so only public addresses.
const t = useTestApp({ admin: true });

describe('outgoing webhooks: audit', () => {
  it('records each change with its before and after, the secret masked; a refused change leaves none', async () => {
    const url = 'http://93.184.215.14/hook'; // a public address (no request is made)
    const [row] = await t.app.database.db.insert(webhooks).values({ url, events: ['ticket.created'], secret: 's'.repeat(32) }).returning();
    const id = row!.id;
    const changed = await t.call('PUT', `/api/webhooks/${id}`, { token: t.admin, body: { url, events: ['ticket.updated'], secret: 'another-secret-of-32-characters!', active: false } });
    expect(changed.status).toBe(200);
    const refused = await t.call('PUT', `/api/webhooks/${id}`, { token: t.admin, body: { url: 'http://10.0.0.1/x', events: ['ticket.updated'] } });
    expect(refused.status).toBe(400);
    expect((await t.call('DELETE', `/api/webhooks/${id}`, { token: t.admin })).status).toBe(200);

    const entries = async (action: string) =>
      (await t.call<{ entries: { targetId: string; before: any; after: any; userName: string }[] }>('GET', `/api/audit?action=${action}`, { token: t.admin })).body.entries.filter(
        (e) => e.targetId === String(id),
      );
    const [update, ...more] = await entries('webhook.update');
    expect(more).toEqual([]);
    expect(update!.before).toEqual({ url, events: ['ticket.created'], active: true, secret: '***' });
    expect(update!.after).toEqual({ url, events: ['ticket.updated'], active: false, secret: '***', signingKeyRenewed: true });
    const [deleted] = await entries('webhook.delete');
    expect(deleted!.before).toMatchObject({ url, secret: '***' });
    expect(JSON.stringify(await entries('webhook.update'))).not.toContain('another-secret');
  });
});

describe('outgoing webhooks: addresses', () => {
  it('refuses a private, loopback or link-local URL with 400 ERR_WEBHOOK_URL_REFUSED, on create and on change', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://10.1.2.3/hook', 'http://192.168.0.10/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://localhost/x']) {
      const res = await t.call('POST', '/api/webhooks', { token: t.admin, body: { url, events: ['ticket.created'] } });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe('ERR_WEBHOOK_URL_REFUSED');
    }
    const [row] = await t.app.database.db.insert(webhooks).values({ url: 'http://203.0.113.9/hook', events: ['ticket.created'], secret: 's'.repeat(32) }).returning();
    const changed = await t.call('PUT', `/api/webhooks/${row!.id}`, { token: t.admin, body: { url: 'http://127.0.0.1/hook', events: ['ticket.created'] } });
    expect(changed.status).toBe(400);
    expect(changed.body.error).toBe('ERR_WEBHOOK_URL_REFUSED');
  });

  it('checks the address again at each send: a URL that now points inside is not called', async () => {
    // As if the host's DNS had changed since it was saved (DNS rebinding): the row holds a loopback address.
    const [row] = await t.app.database.db.insert(webhooks).values({ url: 'http://127.0.0.1:9/hook', events: ['ticket.created'], secret: 's'.repeat(32) }).returning();
    const test = await t.call<WebhookDeliveryDto>('POST', `/api/webhooks/${row!.id}/test`, { token: t.admin });
    expect(test.status).toBe(200);
    expect(test.body.status).toBe('failed');
    expect(test.body.responseCode).toBeNull();
    expect(test.body.lastError).toMatch(/private or loopback/);
  });

  it('validates the URL, the events and the secret', async () => {
    const bad = await t.call('POST', '/api/webhooks', { token: t.admin, body: { url: 'ftp://example.com/x', events: [], secret: 'short' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(bad.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['events', 'secret', 'url']);
    const unknown = await t.call('POST', '/api/webhooks', { token: t.admin, body: { url: 'https://example.com/x', events: ['ticket.exploded'] } });
    expect(unknown.status).toBe(400);
    const missing = await t.call('PUT', '/api/webhooks/999999', { token: t.admin, body: { url: 'https://example.com/x', events: ['ticket.created'] } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_WEBHOOK_FOUND');
  });
});
