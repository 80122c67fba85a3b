import { describe, expect, it } from 'vitest';
import { connectedSimulator } from '../../test/desk-factories.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true });

describe('contacts checked through the default connection', () => {
  it('accepts numbers unchecked while no default connection is connected', async () => {
    const res = await t.call('POST', '/api/contact', { token: t.admin, body: { name: 'Sem conexão', number: '5511900000000' } });
    expect(res.status).toBe(201);
  });

  it('refuses a number the connected default connection says is not on WhatsApp', async () => {
    await connectedSimulator(t, { isDefault: true } as never);
    const refused = await t.call('POST', '/api/contact', { token: t.admin, body: { name: 'Não existe', number: '5511977770000' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    const accepted = await t.call('POST', '/api/contact', { token: t.admin, body: { name: 'Existe', number: '5511977771234' } });
    expect(accepted.status).toBe(201);
  });
});

describe('POST /api/contacts/import', () => {
  it("imports the default connection's address book, skipping numbers already stored", async () => {
    const connections = await t.call('GET', '/api/whatsapp', { token: t.admin });
    const sim = connections.body.find((w: { isDefault: boolean }) => w.isDefault);
    for (const [from, name] of [
      ['5511966661111', 'Ana Import'],
      ['5511966662222', 'Bia Import'],
    ]) {
      await t.call('POST', `/api/simulator/${sim.id}/inbound`, { token: t.admin, body: { from, name, body: 'oi' } });
    }
    // The inbound pipeline stored both; remove one, so the import has something to bring back.
    const stored = await t.call('GET', '/api/contacts?searchParam=bia import', { token: t.admin });
    await t.call('DELETE', `/api/contacts/${stored.body.contacts[0].id}`, { token: t.admin });
    const res = await t.call('POST', '/api/contacts/import', { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    const list = await t.call('GET', '/api/contacts?searchParam=import', { token: t.admin });
    expect(list.body.contacts.map((c: { name: string }) => c.name).sort()).toEqual(['Ana Import', 'Bia Import']);
  });
});
