import type { Channel, WhatsappDto, WhatsappSessionDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { eventually, ManualTimers } from '../test/session-helpers.js';
import { useTestApp } from '../test/test-app.js';
import { AuthStateRepository } from './auth-state.repository.js';
import type { ChannelDriver, ChannelDriverFactory, DriverContext } from './channel-driver.js';
import { RECONNECT_BASE_MS, RECONNECT_MAX_MS } from './reconnect-backoff.js';

/** A driver whose start the test scripts: fail N times, then pair from stored creds or show a QR code. */
class ScriptedDriver implements ChannelDriver {
  constructor(
    readonly context: DriverContext,
    private readonly plan: Plan,
  ) {}

  async start(): Promise<void> {
    this.plan.starts += 1;
    this.plan.current = this;
    if (this.plan.starts <= this.plan.failures) throw new Error('network down');
    const creds = await this.context.authState.get('creds');
    if (creds) this.context.listener.status('CONNECTED', { number: '5511999990000' });
    else this.context.listener.qr(`QR-${this.plan.starts}`);
  }
  async stop(): Promise<void> {
    this.plan.stops += 1;
  }
  async logout(): Promise<void> {
    await this.context.authState.clear();
  }
  private unsupported(): never {
    throw new Error('not supported');
  }
  sendText = async () => this.unsupported();
  sendMedia = async () => this.unsupported();
  deleteMessage = async () => this.unsupported();
  checkNumber = async () => this.unsupported();
  profilePictureUrl = async () => null;
  createGroup = async () => this.unsupported();
  listGroups = async () => [];
  updateGroupSubject = async () => this.unsupported();
  updateGroupDescription = async () => this.unsupported();
  setGroupAnnounce = async () => this.unsupported();
  fetchHistory = async () => [];
}

interface Plan {
  failures: number;
  starts: number;
  stops: number;
  current?: ScriptedDriver;
}

const plans = new Map<number, Plan>();
let nextFailures = 0;
const scripted: ChannelDriverFactory = (context) => {
  let plan = plans.get(context.whatsappId);
  if (!plan) {
    plan = { failures: nextFailures, starts: 0, stops: 0 };
    plans.set(context.whatsappId, plan);
  }
  return new ScriptedDriver(context, plan);
};

const timers = new ManualTimers();
let randomValue = 0.5;
const t = useTestApp({
  channels: { drivers: new Map<Channel, ChannelDriverFactory>([['simulator', scripted]]), timers, random: () => randomValue },
  admin: true,
});

async function get(id: number): Promise<WhatsappDto> {
  return (await t.call<WhatsappDto>('GET', `/api/whatsapp/${id}`, { token: t.admin })).body;
}

async function create(failures: number): Promise<WhatsappDto> {
  nextFailures = failures;
  const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', { token: t.admin, body: { name: `Scripted ${plans.size + 1}`, channel: 'simulator' } });
  expect(res.status).toBe(201);
  return res.body;
}

/** Fires the pending reconnect timer and waits until the connection is stored with that state. */
async function fireAndWait(id: number, expected: Partial<WhatsappDto>): Promise<WhatsappDto> {
  expect(timers.fireNext()).toBe(true);
  return eventually(async () => {
    const w = await get(id);
    return Object.entries(expected).every(([k, v]) => w[k as keyof WhatsappDto] === v) ? w : null;
  }, 5000, JSON.stringify(expected));
}

describe('reconnect with backoff', () => {
  it('retries a connection that fails 3 times at 2 s, 4 s, 8 s, counting retries, then connects and resets them', async () => {
    randomValue = 0.5;
    const before = timers.timeouts.length;
    const w = await create(3);
    const id = w.id;
    await new AuthStateRepository(t.app.database.db, id).set({ creds: { me: 'x' } });
    expect(w).toMatchObject({ status: 'DISCONNECTED', retries: 1 });
    await fireAndWait(id, { status: 'DISCONNECTED', retries: 2 });
    await fireAndWait(id, { status: 'DISCONNECTED', retries: 3 });
    const connected = await fireAndWait(id, { status: 'CONNECTED' });
    expect(connected.retries).toBe(0);
    expect(timers.delays.slice(before)).toEqual([2000, 4000, 8000]);
    expect(plans.get(id)!.starts).toBe(4);
    expect(timers.pending()).toHaveLength(0);
  });

  it('keeps jittered delays within 2–60 s as they grow to the cap', async () => {
    randomValue = 0.93;
    const before = timers.timeouts.length;
    const w = await create(8);
    for (let retries = 2; retries <= 8; retries += 1) await fireAndWait(w.id, { retries });
    const delays = timers.delays.slice(before);
    expect(delays).toHaveLength(8);
    delays.forEach((d, i) => {
      const nominal = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** i);
      expect(d).toBeGreaterThanOrEqual(Math.max(RECONNECT_BASE_MS, nominal * 0.8));
      expect(d).toBeLessThanOrEqual(Math.min(RECONNECT_MAX_MS, nominal * 1.2));
    });
    expect(delays.at(-1)).toBe(RECONNECT_MAX_MS);
    expect(delays[0]).toBe(2344); // 2 s × (0.8 + 0.4 × 0.93): jitter applied
    // "Try again" connects at once and forgets the count.
    randomValue = 0.5;
    const cleared = timers.pending().length;
    expect(cleared).toBe(1);
    await t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(timers.pending()).toHaveLength(0);
    expect(await get(w.id)).toMatchObject({ retries: 0, status: 'qrcode' });
  });

  it('reconnects a session that drops after CONNECTED', async () => {
    const w = await create(0);
    await new AuthStateRepository(t.app.database.db, w.id).set({ creds: { me: 'x' } });
    await t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect((await get(w.id)).status).toBe('CONNECTED');
    const plan = plans.get(w.id)!;
    const before = timers.timeouts.length;
    plan.current!.context.listener.status('DISCONNECTED', { reason: 'connection lost' });
    await t.app.services.sessions.settled(w.id);
    expect(await get(w.id)).toMatchObject({ status: 'DISCONNECTED', retries: 1 });
    expect(timers.delays.slice(before)).toEqual([2000]);
    expect(() => t.app.services.sessions.driver(w.id)).toThrow();
    await fireAndWait(w.id, { status: 'CONNECTED', retries: 0 });
    expect(t.app.services.sessions.driver(w.id)).toBe(plan.current);
  });

  it('clears the auth state of a logged-out session and shows a new QR code, without backoff', async () => {
    const w = await create(0);
    const auth = new AuthStateRepository(t.app.database.db, w.id);
    await auth.set({ creds: { me: 'x' } });
    await t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.admin });
    const before = timers.timeouts.length;
    plans.get(w.id)!.current!.context.listener.status('DISCONNECTED', { loggedOut: true });
    const fresh = await eventually(async () => {
      const current = await get(w.id);
      return current.status === 'qrcode' ? current : null;
    });
    expect(fresh.qrcode).toMatch(/^QR-/);
    expect(await auth.get('creds')).toBeNull();
    expect(timers.timeouts.length).toBe(before);
  });

  it('stops at DISCONNECTED when a QR code expires unscanned, instead of looping through QR codes', async () => {
    const w = await create(0);
    expect(w.status).toBe('qrcode');
    const before = timers.timeouts.length;
    plans.get(w.id)!.current!.context.listener.status('TIMEOUT', { reason: 'qr expired' });
    await t.app.services.sessions.settled(w.id);
    expect(await get(w.id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    expect(timers.timeouts.length).toBe(before);
  });

  it('reconnects at once, without counting a retry, when the network asks for a restart after pairing', async () => {
    const w = await create(0);
    const plan = plans.get(w.id)!;
    const first = plan.current!;
    await new AuthStateRepository(t.app.database.db, w.id).set({ creds: { me: 'paired' } });
    first.context.listener.status('PAIRING');
    const before = timers.timeouts.length;
    first.context.listener.status('DISCONNECTED', { reason: 'restartRequired' });
    const connected = await eventually(async () => {
      const current = await get(w.id);
      return current.status === 'CONNECTED' ? current : null;
    });
    expect(connected.retries).toBe(0);
    expect(plan.current).not.toBe(first);
    expect(timers.timeouts.length).toBe(before);
  });

  it('ignores events of a driver that was replaced', async () => {
    const w = await create(0);
    const old = plans.get(w.id)!.current!;
    await t.call('PUT', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(plans.get(w.id)!.current).not.toBe(old);
    old.context.listener.status('CONNECTED');
    await t.app.services.sessions.settled(w.id);
    expect((await get(w.id)).status).toBe('qrcode');
  });
});

describe('why a connection failed', () => {
  it('shows a driver start failure in GET /api/whatsapp/:id, the list and the socket event, until it connects', async () => {
    const events: WhatsappSessionDto[] = [];
    const unsubscribe = t.app.services.events.on('whatsapp.session', ({ session }) => {
      events.push(session);
    });
    try {
      const w = await create(1);
      await new AuthStateRepository(t.app.database.db, w.id).set({ creds: { me: 'x' } });
      expect(w).toMatchObject({ status: 'DISCONNECTED', lastError: { code: 'start_failed', detail: 'network down' } });
      expect(Number.isNaN(Date.parse(w.lastError!.at))).toBe(false);
      const listed = (await t.call<WhatsappDto[]>('GET', '/api/whatsapp', { token: t.admin })).body.find((c) => c.id === w.id);
      expect(listed?.lastError?.code).toBe('start_failed');
      expect(events.filter((e) => e.id === w.id).at(-1)).toMatchObject({ status: 'DISCONNECTED', lastError: { code: 'start_failed' } });
      const connected = await fireAndWait(w.id, { status: 'CONNECTED' });
      expect(connected.lastError).toBeNull();
      expect(events.filter((e) => e.id === w.id).at(-1)).toMatchObject({ status: 'CONNECTED', lastError: null });
    } finally {
      unsubscribe();
    }
  });

  it('says a dropped connection was lost, with the network reason, and clears it once reconnected', async () => {
    const w = await create(0);
    await new AuthStateRepository(t.app.database.db, w.id).set({ creds: { me: 'x' } });
    await t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(await get(w.id)).toMatchObject({ status: 'CONNECTED', lastError: null });
    plans.get(w.id)!.current!.context.listener.status('DISCONNECTED', { reason: 'connectionClosed' });
    await t.app.services.sessions.settled(w.id);
    expect(await get(w.id)).toMatchObject({ status: 'DISCONNECTED', lastError: { code: 'connection_lost', detail: 'connectionClosed' } });
    const connected = await fireAndWait(w.id, { status: 'CONNECTED' });
    expect(connected.lastError).toBeNull();
  });

  it('says the phone logged the device out while it shows the new QR code', async () => {
    const w = await create(0);
    await new AuthStateRepository(t.app.database.db, w.id).set({ creds: { me: 'x' } });
    await t.call('POST', `/api/whatsappsession/${w.id}`, { token: t.admin });
    plans.get(w.id)!.current!.context.listener.status('DISCONNECTED', { loggedOut: true, reason: 'loggedOut' });
    const fresh = await eventually(async () => {
      const current = await get(w.id);
      return current.status === 'qrcode' ? current : null;
    });
    expect(fresh.lastError).toMatchObject({ code: 'logged_out' });
  });

  it('says the QR code expired unscanned, and forgets it when the user disconnects', async () => {
    const w = await create(0);
    plans.get(w.id)!.current!.context.listener.status('DISCONNECTED', { reason: 'qrTimeout' });
    await t.app.services.sessions.settled(w.id);
    const expired = await get(w.id);
    expect(expired).toMatchObject({ status: 'DISCONNECTED', lastError: { code: 'qr_timeout' } });
    expect(expired.lastError?.detail).toBeUndefined();
    await t.call('DELETE', `/api/whatsappsession/${w.id}`, { token: t.admin });
    expect(await get(w.id)).toMatchObject({ status: 'DISCONNECTED', lastError: null });
  });
});
