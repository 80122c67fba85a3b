import { beforeAll, describe, expect, it } from 'vitest';
import { whatsapps } from '../../db/schema.js';
import { useTestApp } from '../../test/test-app.js';
import { AuthStateRepository } from '../auth-state.repository.js';
import { loadBaileysAuthState } from './baileys-auth-state.js';

const t = useTestApp();
let whatsappId: number;
beforeAll(async () => {
  // A Baileys connection row without a running session (WhatsApp is not reachable from the tests).
  const [row] = await t.app.database.db.insert(whatsapps).values({ name: 'Phone', channel: 'baileys', status: 'DISCONNECTED' }).returning({ id: whatsapps.id });
  whatsappId = row!.id;
});

describe('Baileys auth state in PostgreSQL', () => {
  it('keeps credentials and signal keys across a restart, Buffers intact, and clears them on logout', async () => {
    const first = await loadBaileysAuthState(new AuthStateRepository(t.app.database.db, whatsappId));
    first.state.creds.me = { id: '5511999990000:1@s.whatsapp.net', name: 'Loja' };
    await first.saveCreds();
    const preKey = { public: Buffer.from('public-key-bytes'), private: Buffer.from('private-key-bytes') };
    await first.state.keys.set({ 'pre-key': { '7': preKey } });

    // A new process: nothing in memory, everything from the database.
    const reloaded = await loadBaileysAuthState(new AuthStateRepository(t.app.database.db, whatsappId));
    expect(reloaded.state.creds.me).toEqual({ id: '5511999990000:1@s.whatsapp.net', name: 'Loja' });
    expect(Buffer.isBuffer(reloaded.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(reloaded.state.creds.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).toBe(true);
    expect(reloaded.state.creds.registrationId).toBe(first.state.creds.registrationId);
    const keys = await reloaded.state.keys.get('pre-key', ['7', '8']);
    expect(Buffer.from(keys['7']!.private).equals(preKey.private)).toBe(true);
    expect(keys['8']).toBeUndefined();

    // Logged out: the state is cleared, and the next start pairs from scratch.
    await new AuthStateRepository(t.app.database.db, whatsappId).clear();
    const fresh = await loadBaileysAuthState(new AuthStateRepository(t.app.database.db, whatsappId));
    expect(fresh.state.creds.me).toBeUndefined();
    expect(Buffer.from(fresh.state.creds.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).toBe(false);
  });
});
