import type { WhatsappDto, WhatsappSessionDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/session-helpers.js';
import { nextEvent, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true });

let names = 0;
async function createConnection(body: Record<string, unknown> = {}): Promise<WhatsappDto> {
  names += 1;
  const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', {
    token: t.admin,
    body: { name: `Connection ${names}`, channel: 'simulator', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function get(id: number): Promise<WhatsappDto> {
  return (await t.call<WhatsappDto>('GET', `/api/whatsapp/${id}`, { token: t.admin })).body;
}

async function createQueue(name: string, color: string): Promise<number> {
  const res = await t.call<{ id: number }>('POST', '/api/queue', { token: t.admin, body: { name, color } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('connections: the default rule', () => {
  it('makes the first connection the default and keeps exactly one default', async () => {
    const first = await createConnection();
    expect(first.isDefault).toBe(true);
    const second = await createConnection({ isDefault: false });
    expect(second.isDefault).toBe(false);

    const third = await createConnection({ isDefault: true });
    expect(third.isDefault).toBe(true);
    expect((await get(first.id)).isDefault).toBe(false);

    const promoted = await t.call<WhatsappDto>('PUT', `/api/whatsapp/${second.id}`, { token: t.admin, body: { isDefault: true } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.isDefault).toBe(true);
    const list = (await t.call<WhatsappDto[]>('GET', '/api/whatsapp/', { token: t.admin })).body;
    expect(list.filter((w) => w.isDefault).map((w) => w.id)).toEqual([second.id]);
  });

  it('refuses to unset the only default with ERR_NO_OTHER_WHATSAPP', async () => {
    const list = (await t.call<WhatsappDto[]>('GET', '/api/whatsapp', { token: t.admin })).body;
    const current = list.find((w) => w.isDefault)!;
    const res = await t.call('PUT', `/api/whatsapp/${current.id}`, { token: t.admin, body: { isDefault: false } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect((await get(current.id)).isDefault).toBe(true);
  });

  it('changes only the fields sent on update', async () => {
    const w = await createConnection({ greetingMessage: 'Hello', farewellMessage: 'Bye' });
    const res = await t.call<WhatsappDto>('PUT', `/api/whatsapp/${w.id}/`, { token: t.admin, body: { name: 'Renamed' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', greetingMessage: 'Hello', farewellMessage: 'Bye', channel: 'simulator' });
  });

  it('hands the default to another connection when the default one is deleted', async () => {
    const list = (await t.call<WhatsappDto[]>('GET', '/api/whatsapp', { token: t.admin })).body;
    const current = list.find((w) => w.isDefault)!;
    const res = await t.call('DELETE', `/api/whatsapp/${current.id}`, { token: t.admin });
    expect(res.status).toBe(200);
    expect((await t.call('GET', `/api/whatsapp/${current.id}`, { token: t.admin })).body.error).toBe('ERR_NO_WAPP_FOUND');
    const after = (await t.call<WhatsappDto[]>('GET', '/api/whatsapp', { token: t.admin })).body;
    expect(after.filter((w) => w.isDefault)).toHaveLength(1);
  });
});

describe('connections: validation and greeting rule', () => {
  it('validates the name (2 to 50)', async () => {
    const short = await t.call('POST', '/api/whatsapp', { token: t.admin, body: { name: 'A' } });
    expect(short.status).toBe(400);
    expect(short.body.issues).toEqual([{ path: 'name', message: 'Too Short!' }]);
    const long = await t.call('POST', '/api/whatsapp', { token: t.admin, body: { name: 'x'.repeat(51) } });
    expect(long.body.issues).toEqual([{ path: 'name', message: 'Too Long!' }]);
  });

  it('requires a greeting with more than one queue (ERR_WAPP_GREETING_REQUIRED)', async () => {
    const q1 = await createQueue('Sales', '#112233');
    const q2 = await createQueue('Support', '#445566');
    const refused = await t.call('POST', '/api/whatsapp', {
      token: t.admin,
      body: { name: 'Two queues', channel: 'simulator', queueIds: [q1, q2] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');

    const one = await createConnection({ queueIds: [q1] });
    expect(one.queues.map((q) => q.id)).toEqual([q1]);
    const update = await t.call('PUT', `/api/whatsapp/${one.id}`, { token: t.admin, body: { queueIds: [q1, q2] } });
    expect(update.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');

    const ok = await t.call<WhatsappDto>('PUT', `/api/whatsapp/${one.id}`, {
      token: t.admin,
      body: { queueIds: [q1, q2], greetingMessage: 'Choose: 1 Sales, 2 Support' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.queues.map((q) => q.name)).toEqual(['Sales', 'Support']);
    // Clearing the greeting while two queues remain is refused too.
    const cleared = await t.call('PUT', `/api/whatsapp/${one.id}`, { token: t.admin, body: { greetingMessage: '  ' } });
    expect(cleared.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
  });

  it('refuses an unknown queue with ERR_VALIDATION', async () => {
    const res = await t.call('POST', '/api/whatsapp', { token: t.admin, body: { name: 'Ghost queue', queueIds: [99999] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it('answers ERR_NO_WAPP_FOUND for an unknown connection', async () => {
    for (const [method, url] of [
      ['PUT', '/api/whatsapp/99999'],
      ['DELETE', '/api/whatsapp/99999'],
      ['POST', '/api/whatsappsession/99999'],
      ['PUT', '/api/whatsappsession/99999'],
      ['DELETE', '/api/whatsappsession/99999'],
    ] as const) {
      const res = await t.call(method, url, { token: t.admin, body: method === 'PUT' ? { name: 'Whatever' } : undefined });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
  });
});

describe('connections: roles', () => {
  it('lets any signed-in user read connections', async () => {
    const w = await createConnection();
    expect((await t.call('GET', '/api/whatsapp', { token: t.user })).status).toBe(200);
    expect((await t.call('GET', `/api/whatsapp/${w.id}`, { token: t.user })).status).toBe(200);
    expect((await t.call('GET', '/api/whatsapp')).status).toBe(401);
  });

  it('shows a user the states read-only, without the QR code only an admin may scan', async () => {
    const w = await createConnection();
    expect(w.status).toBe('qrcode');
    expect((await get(w.id)).qrcode).toMatch(/^SIM-/);

    const one = await t.call<WhatsappDto>('GET', `/api/whatsapp/${w.id}`, { token: t.user });
    expect(one.body).toMatchObject({ id: w.id, name: w.name, status: 'qrcode', qrcode: '' });
    const list = await t.call<WhatsappDto[]>('GET', '/api/whatsapp/', { token: t.user });
    const mine = list.body.find((x) => x.id === w.id)!;
    expect(mine).toMatchObject({ status: 'qrcode', qrcode: '' });
    expect(list.body.every((x) => x.qrcode === '')).toBe(true);
  });

  it('says in GET /api/health whether the simulator runs, so the web offers its page only then', async () => {
    const health = await t.call<{ status: string; simulator: boolean }>('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', simulator: true });
  });

  it('refuses every write to a user with 403 ERR_NO_PERMISSION', async () => {
    const w = await createConnection();
    const attempts = [
      t.call('POST', '/api/whatsapp', { token: t.user, body: { name: 'Mine' } }),
      t.call('PUT', `/api/whatsapp/${w.id}`, { token: t.user, body: { name: 'Mine' } }),
      t.call('DELETE', `/api/whatsapp/${w.id}`, { token: t.user }),
      t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.user }),
      t.call('PUT', `/api/whatsappsession/${w.id}`, { token: t.user }),
      t.call('DELETE', `/api/whatsappsession/${w.id}`, { token: t.user }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await get(w.id)).name).toBe(w.name);
  });
});

describe('connection sessions', () => {
  it('runs the simulator lifecycle: create → qrcode → scan → CONNECTED → disconnect → new QR', async () => {
    const w = await createConnection();
    expect(w.status).toBe('qrcode');
    expect(w.qrcode).toMatch(new RegExp(`^SIM-${w.id}-`));

    const scan = await t.call('POST', `/api/simulator/${w.id}/scan`, { token: t.admin });
    expect(scan.status).toBe(200);
    expect(await get(w.id)).toMatchObject({ status: 'CONNECTED', qrcode: '', retries: 0 });

    const disconnect = await t.call('DELETE', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(disconnect.status).toBe(200);
    expect(await get(w.id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });

    const newQr = await t.call('PUT', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(newQr.status).toBe(200);
    const again = await eventually(async () => {
      const current = await get(w.id);
      return current.status === 'qrcode' ? current : null;
    });
    expect(again.qrcode).toMatch(/^SIM-/);
    expect(again.qrcode).not.toBe(w.qrcode);
  });

  it('retries a disconnected connection (POST /whatsappsession): a paired device comes back CONNECTED', async () => {
    const w = await createConnection();
    await t.call('POST', `/api/simulator/${w.id}/scan`, { token: t.admin });
    const retry = await t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(retry.status).toBe(200);
    await eventually(async () => (await get(w.id)).status === 'CONNECTED', 5000, 'CONNECTED');
  });

  it('sends whatsappSession events to connected sockets as the state changes', async () => {
    const w = await createConnection();
    const socket = await t.socket(await t.adminToken());
    const seen: WhatsappSessionDto[] = [];
    socket.on('whatsappSession', (e: { action: string; session: WhatsappSessionDto }) => {
      expect(e.action).toBe('update');
      seen.push(e.session);
    });
    const userSocket = await t.socket(t.user);
    const userEvent = nextEvent<{ session: WhatsappSessionDto }>(userSocket, 'whatsappSession');
    await t.call('POST', `/api/simulator/${w.id}/scan`, { token: t.admin });
    await eventually(async () => seen.some((s) => s.status === 'CONNECTED'), 3000, 'CONNECTED event');
    expect(seen.map((s) => s.status)).toEqual(['PAIRING', 'CONNECTED']);
    expect(seen[1]).toMatchObject({ id: w.id, qrcode: '', retries: 0 });
    expect(typeof seen[1]!.updatedAt).toBe('string');
    expect((await userEvent).session.id).toBe(w.id);
  });

  it('stops the session when the connection is deleted, with a whatsapp delete event', async () => {
    const w = await createConnection();
    await t.call('POST', `/api/simulator/${w.id}/scan`, { token: t.admin });
    expect(t.app.services.sessions.status(w.id)).toBe('CONNECTED');
    const socket = await t.socket(t.admin);
    const deleted = nextEvent<{ action: string; whatsappId: number }>(socket, 'whatsapp');
    await t.call('DELETE', `/api/whatsapp/${w.id}`, { token: t.admin });
    expect(await deleted).toEqual({ action: 'delete', whatsappId: w.id });
    expect(t.app.services.sessions.status(w.id)).toBeNull();
    expect(() => t.app.services.sessions.driver(w.id)).toThrow(/not connected/);
  });
});
