import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator } from '../../test/desk-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
});

describe('contacts checked through the default connection', () => {
  it('accepts numbers unchecked while no default connection is connected', async () => {
    const res = await t.call('POST', '/api/contact', { token: admin, body: { name: 'Sem conexão', number: '5511900000000' } });
    expect(res.status).toBe(201);
  });

  it('refuses a number the connected default connection says is not on WhatsApp', async () => {
    await connectedSimulator(t, { isDefault: true } as never);
    const refused = await t.call('POST', '/api/contact', { token: admin, body: { name: 'Não existe', number: '5511977770000' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    const accepted = await t.call('POST', '/api/contact', { token: admin, body: { name: 'Existe', number: '5511977771234' } });
    expect(accepted.status).toBe(201);
  });
});

describe('POST /api/contacts/import', () => {
  it("imports the default connection's address book, skipping numbers already stored", async () => {
    const connections = await t.call('GET', '/api/whatsapp', { token: admin });
    const sim = connections.body.find((w: { isDefault: boolean }) => w.isDefault);
    for (const [from, name] of [
      ['5511966661111', 'Ana Import'],
      ['5511966662222', 'Bia Import'],
    ]) {
      await t.call('POST', `/api/simulator/${sim.id}/inbound`, { token: admin, body: { from, name, body: 'oi' } });
    }
    // The inbound pipeline stored both; remove one, so the import has something to bring back.
    const stored = await t.call('GET', '/api/contacts?searchParam=bia import', { token: admin });
    await t.call('DELETE', `/api/contacts/${stored.body.contacts[0].id}`, { token: admin });
    const res = await t.call('POST', '/api/contacts/import', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    const list = await t.call('GET', '/api/contacts?searchParam=import', { token: admin });
    expect(list.body.contacts.map((c: { name: string }) => c.name).sort()).toEqual(['Ana Import', 'Bia Import']);
  });
});
