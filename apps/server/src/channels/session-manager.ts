import type { Channel, ConnectionErrorCode, ConnectionErrorDto, SessionStatus } from '@wadesk/contracts';
import type { Database } from '../db/client.js';
import type { DomainEvents } from '../events/domain-events.js';
import { AppError } from '../http/app-error.js';
import { AuthStateRepository } from './auth-state.repository.js';
import type { AckUpdate, ChannelDriver, ChannelDriverFactory, DriverContext, DriverListener, InboundMessage, InboundOutcome } from './channel-driver.js';
import { connectionLeasesFor, EmbeddedLeases, type ConnectionLeases } from './connection-lease.repository.js';
import { InboundHub, type AckListener, type CallListener, type HistoryListener, type MessageListener } from './inbound-hub.js';
import type { ChannelConnections, SessionWrite } from './ports.js';
import { reconnectDelay } from './reconnect-backoff.js';

/** Timer functions, injectable so tests drive reconnects without waiting. */
export interface SessionTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realTimers: SessionTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export interface SessionManagerOptions {
  /** The channel layer's own tables (auth state, leases). */
  db: Database;
  /** The desk's connections: which to run, and where their state is written. */
  connections: ChannelConnections;
  events: DomainEvents;
  /** The driver of each channel; a channel without one leaves its connections DISCONNECTED. */
  drivers: ReadonlyMap<Channel, ChannelDriverFactory>;
  /** This process, as lease owner. */
  nodeId: string;
  log: DriverContext['log'];
  timers?: SessionTimers;
  random?: () => number;
  startConcurrency?: number;
  /** How often to check our leases and look for connections nobody runs (a dead node's). */
  leaseCheckMs?: number;
  /** Who runs which connection; by default advisory locks on PostgreSQL, everything ours on PGlite. */
  leases?: ConnectionLeases;
  /**
   * A connection nobody runs for this long is taken even by a process that already runs its share (a fair
   * share computed from a stale count of processes must not leave it down).
   */
  shareGraceMs?: number;
  clock?: () => number;
}

/** Connections a process may run above its fair share (ceil(connections / processes)). */
export const SHARE_SLACK = 0;

/** Stored states that claim a live session: after a start they are only true once a driver says so again. */
const CLAIMS_LIVE = new Set<SessionStatus>(['CONNECTED', 'PAIRING', 'qrcode']);

/** One running connection in this process. */
interface Session {
  id: number;
  channel: Channel;
  driver: ChannelDriver | null;
  /** Bumped whenever the driver is replaced or stopped: events of older drivers are ignored. */
  generation: number;
  status: SessionStatus;
  /** Failed connection attempts since the last CONNECTED. */
  attempts: number;
  reconnectTimer: unknown;
  /** Persistence of state changes, in order. */
  persisted: Promise<void>;
  /** Why it last failed, since it was last CONNECTED (memory only: a restart shows OPENING anyway). */
  lastError: ConnectionErrorDto | null;
}

/** Longest failure detail kept (a driver's error message may be long). */
const ERROR_DETAIL_MAX = 200;

/**
 * Owns the channel drivers of this process: starts every connection at boot, keeps each one's state in the
 * database and in `whatsapp.session` events, reconnects drops with backoff, and holds a lease per connection
 * so that only one process runs it.
 */
export class SessionManager {
  private readonly sessions = new Map<number, Session>();
  private readonly pending = new Map<number, Promise<Session | null>>();
  private readonly hub: InboundHub;
  private readonly leases: ConnectionLeases;
  private readonly timers: SessionTimers;
  private readonly random: () => number;
  private leaseTimer: unknown = null;
  /** When this process first saw each connection unowned while it already ran its share. */
  private readonly unownedSince = new Map<number, number>();
  private readonly takeoverListeners: ((whatsappId: number) => void)[] = [];
  private upkeep: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: SessionManagerOptions) {
    this.hub = new InboundHub(options.log);
    this.leases = options.leases ?? connectionLeasesFor(options.db, options.nodeId, options.log);
    this.leases.onLost(() => void this.maintainLeases());
    this.timers = options.timers ?? realTimers;
    this.random = options.random ?? Math.random;
  }

  /** Inbound messages of every connection this process runs. Answers an unsubscribe function. */
  onMessage(listener: MessageListener): () => void {
    return this.hub.onMessage(listener);
  }

  /** Delivery acks of messages the connections sent. */
  onAck(listener: AckListener): () => void {
    return this.hub.onAck(listener);
  }

  /** Incoming calls (acceptCalls): a listener resolving true makes the driver reject the call. */
  onCall(listener: CallListener): () => void {
    return this.hub.onCall(listener);
  }

  /**
   * Hands a message that came by webhook (the Cloud API, issue 18) to the same pipeline the drivers feed:
   * resolves once it is stored or known as a duplicate.
   */
  receive(whatsappId: number, message: InboundMessage): Promise<InboundOutcome> {
    return this.hub.message(whatsappId, message);
  }

  /** A delivery status that came by webhook, as a driver's ack. */
  receiveAck(whatsappId: number, update: AckUpdate): void {
    this.hub.ack(whatsappId, update);
  }

  /**
   * A connection nobody ran (its process died or stopped) now runs here, its driver started: for work that
   * was waiting on it (a campaign's steps) to go on at once.
   */
  onTakeover(listener: (whatsappId: number) => void): void {
    this.takeoverListeners.push(listener);
  }

  /** History the network pushed (for the history import tool). */
  onHistory(listener: HistoryListener): () => void {
    return this.hub.onHistory(listener);
  }

  /**
   * Takes every connection no live process runs, then starts them a few at a time, and keeps checking the
   * leases. A connection whose stored state claims a live session (CONNECTED, a QR code...) shows OPENING
   * until its driver reports the real state: nothing backs the stored one any more.
   */
  async startAll(): Promise<void> {
    const targets = await this.options.connections.listSessionTargets();
    const mine: number[] = [];
    const share = await this.fairShare(targets.length);
    for (const target of targets) {
      if (this.sessions.size >= share) break; // the others are for the other processes (or for the next upkeep)
      try {
        const session = await this.ensureSession(target.id);
        if (!session) continue;
        mine.push(session.id);
        if (!session.driver && CLAIMS_LIVE.has(session.status)) this.record(session, { status: 'OPENING', qrcode: '' });
      } catch (err) {
        this.options.log.error({ err, whatsappId: target.id }, 'taking a connection failed');
      }
    }
    const workers = Array.from({ length: Math.max(1, this.options.startConcurrency ?? 3) }, async () => {
      for (let id = mine.shift(); id !== undefined; id = mine.shift()) await this.bringUp(id);
    });
    await Promise.all(workers);
    if (!this.leaseTimer && !this.closed) {
      this.leaseTimer = this.timers.setInterval(() => void this.maintainLeases(), this.options.leaseCheckMs ?? 3_000);
    }
  }

  /** Starts a connection unless it already runs here or another process holds it. Never throws. */
  async start(id: number): Promise<void> {
    if (this.sessions.has(id) || this.pending.has(id)) return;
    await this.bringUp(id);
  }

  /** Takes the connection's lease when needed and launches its driver unless one runs or a retry waits. */
  private async bringUp(id: number): Promise<void> {
    try {
      const session = await this.ensureSession(id);
      if (session && !session.driver && session.reconnectTimer === null) await this.launch(session);
      await this.settled(id);
    } catch (err) {
      this.options.log.error({ err, whatsappId: id }, 'session start failed');
    }
  }

  /** "Try again": restarts the connection now from its stored auth state. */
  async restart(id: number): Promise<void> {
    const session = await this.requireSession(id);
    await this.halt(session);
    session.attempts = 0;
    this.record(session, { retries: 0 });
    await this.launch(session);
    await this.settled(id);
  }

  /** "New QR": logs the device out, forgets its auth state and starts over to show a fresh QR code. */
  async newQr(id: number): Promise<void> {
    const session = await this.requireSession(id);
    await this.halt(session, { logout: true });
    session.attempts = 0;
    this.record(session, { retries: 0 });
    await this.launch(session);
    await this.settled(id);
  }

  /** "Disconnect": logs the device out; the connection stays DISCONNECTED until retried. */
  async disconnect(id: number): Promise<void> {
    const session = await this.requireSession(id);
    await this.halt(session, { logout: true });
    session.attempts = 0;
    session.lastError = null;
    this.record(session, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
    await session.persisted;
  }

  /** Stops a connection's session here because its row is being deleted, and gives its lease back. */
  async stop(id: number): Promise<void> {
    await this.pending.get(id);
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await this.halt(session);
    await session.persisted;
    await this.leases.release([id]).catch((err: unknown) => {
      this.options.log.warn({ err, whatsappId: id }, 'releasing a connection lease failed');
    });
  }

  /** Stops every session (keeping auth state, so the next start resumes) and gives the leases back. */
  async stopAll(): Promise<void> {
    this.closed = true;
    if (this.leaseTimer) this.timers.clearInterval(this.leaseTimer);
    this.leaseTimer = null;
    await Promise.all([...this.pending.values()]);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(async (s) => this.halt(s)));
    await Promise.all(all.map(async (s) => s.persisted));
    await this.leases.close().catch((err: unknown) => {
      this.options.log.warn({ err }, 'releasing connection leases failed');
    });
  }

  /** The driver of a CONNECTED connection run by this process; ERR_WAPP_NOT_INITIALIZED otherwise. */
  driver(id: number): ChannelDriver {
    const session = this.sessions.get(id);
    if (!session && !(this.leases instanceof EmbeddedLeases)) {
      // Several processes (decision 0020): texts are routed to the owner; other driver calls are not.
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected in this server process: another server process runs it, or it is starting or stopped. Try again in a moment.');
    }
    if (!session?.driver || session.status !== 'CONNECTED') {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected.');
    }
    return session.driver;
  }

  /** Why the connection last failed, as this process knows it (null when none, or when it does not run it). */
  lastError(id: number): ConnectionErrorDto | null {
    return this.sessions.get(id)?.lastError ?? null;
  }

  /** The status as this process knows it (null when it does not run the connection). */
  status(id: number): SessionStatus | null {
    return this.sessions.get(id)?.status ?? null;
  }

  /** Resolves when every state change of the connection is stored and announced. */
  async settled(id: number): Promise<void> {
    for (;;) {
      const persisted = this.sessions.get(id)?.persisted;
      if (!persisted) return;
      await persisted;
      if (this.sessions.get(id)?.persisted === persisted) return;
    }
  }

  private async requireSession(id: number): Promise<Session> {
    const session = await this.ensureSession(id);
    if (!session) throw new AppError('ERR_NO_WAPP_FOUND');
    return session;
  }

  /** The session entry of a connection, created (with its lease) when missing; null if deleted or owned elsewhere. */
  private async ensureSession(id: number): Promise<Session | null> {
    const existing = this.sessions.get(id);
    if (existing) return existing;
    const inFlight = this.pending.get(id);
    if (inFlight) return inFlight;
    const creating = (async (): Promise<Session | null> => {
      if (this.closed) return null;
      const target = await this.options.connections.findSessionTarget(id);
      if (!target) return null;
      if (!(await this.leases.acquire(id))) {
        this.options.log.info({ whatsappId: id }, 'connection is run by another process');
        return null;
      }
      const session: Session = {
        id,
        channel: target.channel,
        driver: null,
        generation: 0,
        status: target.status,
        attempts: 0,
        reconnectTimer: null,
        persisted: Promise.resolve(),
        lastError: null,
      };
      this.sessions.set(id, session);
      return session;
    })();
    this.pending.set(id, creating);
    try {
      return await creating;
    } finally {
      this.pending.delete(id);
    }
  }

  /** Creates a driver for the session and starts it; a failure schedules a reconnect. */
  private async launch(session: Session): Promise<void> {
    session.reconnectTimer = null;
    if (!this.isLive(session)) return;
    const generation = ++session.generation;
    const target = await this.options.connections.findSessionTarget(session.id);
    if (!target || !this.isLive(session, generation)) return;
    session.channel = target.channel;
    const factory = this.options.drivers.get(session.channel);
    if (!factory) {
      this.options.log.warn(
        { whatsappId: session.id, channel: session.channel },
        'no driver for this channel: connection left DISCONNECTED',
      );
      this.fail(session, 'no_driver', session.channel);
      this.record(session, { status: 'DISCONNECTED', qrcode: '' });
      return;
    }
    this.record(session, { status: 'OPENING', qrcode: '' });
    let driver: ChannelDriver;
    try {
      driver = factory({
        whatsappId: session.id,
        authState: new AuthStateRepository(this.options.db, session.id),
        listener: this.listenerFor(session, generation),
        log: this.options.log,
      });
      session.driver = driver;
      await driver.start();
    } catch (err) {
      if (!this.isLive(session, generation)) return;
      this.options.log.warn({ err, whatsappId: session.id }, 'connection failed to start');
      this.fail(session, 'start_failed', err instanceof Error ? err.message : String(err));
      this.scheduleReconnect(session, 'DISCONNECTED');
    }
  }

  private listenerFor(session: Session, generation: number): DriverListener {
    const current = () => this.isLive(session, generation);
    return {
      qr: (qrcode) => {
        if (current()) this.record(session, { status: 'qrcode', qrcode });
      },
      status: (status, detail) => {
        if (current()) this.onDriverStatus(session, status, detail);
      },
      message: async (message) => {
        if (!this.isLive(session)) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection no longer runs here.');
        return this.hub.message(session.id, message);
      },
      ack: (update) => {
        if (this.isLive(session)) this.hub.ack(session.id, update);
      },
      history: async (messages) => {
        if (this.isLive(session)) await this.hub.history(session.id, messages);
      },
      call: async (call) => (this.isLive(session) ? this.hub.call(session.id, call) : false),
    };
  }

  private onDriverStatus(
    session: Session,
    status: SessionStatus,
    detail?: { loggedOut?: boolean; reason?: string; number?: string },
  ): void {
    if (status === 'CONNECTED') {
      session.attempts = 0;
      session.lastError = null;
      this.record(session, { status, qrcode: '', retries: 0, ...(detail?.number ? { number: detail.number } : {}) });
      return;
    }
    if (status !== 'DISCONNECTED' && status !== 'TIMEOUT') {
      this.record(session, status === 'qrcode' ? { status } : { status, qrcode: '' });
      return;
    }
    if (detail?.loggedOut) {
      // The phone removed this device: forget the credentials and show a fresh QR code.
      this.options.log.info({ whatsappId: session.id }, 'connection logged out: starting over with a new QR code');
      this.fail(session, 'logged_out');
      void this.restartFresh(session);
      return;
    }
    if (detail?.reason === 'restartRequired') {
      // The network asks for a new connection (right after pairing, for one): not a failure, no backoff.
      void this.relaunchNow(session);
      return;
    }
    if (session.status === 'qrcode' || detail?.reason === 'qrTimeout') {
      // Nobody scanned the QR code: stop here rather than loop through QR codes forever.
      void this.halt(session);
      this.fail(session, 'qr_timeout', detail?.reason === 'qrTimeout' ? undefined : detail?.reason);
      this.record(session, { status: 'DISCONNECTED', qrcode: '' });
      return;
    }
    this.fail(session, 'connection_lost', detail?.reason ?? (status === 'TIMEOUT' ? 'timeout' : undefined));
    this.scheduleReconnect(session, status);
  }

  /** Remembers why the connection failed; the next recorded state change carries it. */
  private fail(session: Session, code: ConnectionErrorCode, detail?: string): void {
    const text = detail?.trim().slice(0, ERROR_DETAIL_MAX);
    session.lastError = { code, ...(text ? { detail: text } : {}), at: new Date().toISOString() };
  }

  private async relaunchNow(session: Session): Promise<void> {
    try {
      await this.halt(session);
      await this.launch(session);
    } catch (err) {
      this.options.log.error({ err, whatsappId: session.id }, 'restarting a connection failed');
    }
  }

  private async restartFresh(session: Session): Promise<void> {
    try {
      await this.halt(session);
      await new AuthStateRepository(this.options.db, session.id).clear();
      session.attempts = 0;
      this.record(session, { retries: 0 });
      await this.launch(session);
    } catch (err) {
      this.options.log.error({ err, whatsappId: session.id }, 'restarting a logged-out connection failed');
    }
  }

  private scheduleReconnect(session: Session, status: SessionStatus): void {
    const old = session.driver;
    session.driver = null;
    session.generation += 1;
    if (old) void this.quietly(session.id, 'stop', () => old.stop());
    session.attempts += 1;
    this.record(session, { status, qrcode: '', retries: session.attempts });
    const delay = reconnectDelay(session.attempts, this.random);
    this.options.log.info({ whatsappId: session.id, attempt: session.attempts, delay }, 'connection dropped: reconnecting');
    session.reconnectTimer = this.timers.setTimeout(() => void this.launch(session), delay);
  }

  /** Stops the session's driver (logging the device out and forgetting auth state if asked); no reconnect. */
  private async halt(session: Session, options: { logout?: boolean } = {}): Promise<void> {
    session.generation += 1;
    if (session.reconnectTimer !== null) this.timers.clearTimeout(session.reconnectTimer);
    session.reconnectTimer = null;
    const driver = session.driver;
    session.driver = null;
    if (options.logout) {
      if (driver) await this.quietly(session.id, 'logout', () => driver.logout());
      await new AuthStateRepository(this.options.db, session.id).clear();
    } else if (driver) {
      await this.quietly(session.id, 'stop', () => driver.stop());
    }
  }

  private async quietly(whatsappId: number, what: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.options.log.warn({ err, whatsappId }, `driver ${what} failed`);
    }
  }

  private isLive(session: Session, generation?: number): boolean {
    if (this.sessions.get(session.id) !== session) return false;
    return generation === undefined || session.generation === generation;
  }

  /** Applies a state change now and stores/announces it after the ones before it. */
  private record(session: Session, write: SessionWrite): void {
    if (write.status) session.status = write.status;
    const lastError = session.lastError;
    session.persisted = session.persisted
      .then(async () => {
        const dto = await this.options.connections.updateSession(session.id, write);
        if (dto) this.options.events.emit('whatsapp.session', { session: { ...dto, lastError } });
      })
      .catch((err: unknown) => this.options.log.error({ err, whatsappId: session.id }, 'saving session state failed'));
  }

  /** Drops the sessions whose lease was lost, and takes over connections nobody runs (one round at a time). */
  private maintainLeases(): Promise<void> {
    this.upkeep ??= this.leaseUpkeep().finally(() => {
      this.upkeep = null;
    });
    return this.upkeep;
  }

  private async leaseUpkeep(): Promise<void> {
    if (this.closed) return;
    try {
      const mine = [...this.sessions.keys()];
      const kept = await this.leases.held(mine);
      for (const id of mine) {
        const session = this.sessions.get(id);
        if (kept.has(id) || !session) continue;
        this.options.log.warn({ whatsappId: id }, 'lease lost: another process runs this connection now');
        this.sessions.delete(id);
        await this.halt(session);
      }
      const unowned = await this.leases.unowned();
      if (unowned.length === 0) {
        this.unownedSince.clear();
        return;
      }
      const share = await this.fairShare();
      const now = this.clock();
      for (const id of [...this.unownedSince.keys()]) if (!unowned.includes(id)) this.unownedSince.delete(id);
      for (const id of unowned) {
        if (this.sessions.has(id) || this.closed) continue;
        const since = this.unownedSince.get(id) ?? now;
        this.unownedSince.set(id, since);
        // Our share first; past it, only what nobody else took within the grace time.
        if (this.sessions.size >= share && now - since < (this.options.shareGraceMs ?? 10_000)) continue;
        await this.start(id);
        if (!this.sessions.has(id)) continue;
        this.unownedSince.delete(id);
        this.options.log.info({ whatsappId: id }, 'connection taken over');
        for (const listener of this.takeoverListeners) listener(id);
      }
    } catch (err) {
      this.options.log.error({ err }, 'connection lease upkeep failed');
    }
  }

  /** How many connections this process takes: ceil(connections / live processes) + slack; all on one process. */
  private async fairShare(connections?: number): Promise<number> {
    try {
      const census = await this.leases.census();
      if (census.processes <= 1) return Infinity;
      return Math.ceil((connections ?? census.connections) / census.processes) + SHARE_SLACK;
    } catch (err) {
      this.options.log.warn({ err }, 'counting the live processes failed: taking every free connection');
      return Infinity;
    }
  }

  private clock(): number {
    return this.options.clock ? this.options.clock() : Date.now();
  }

  /** For tests: one round of lease upkeep now. */
  async maintainLeasesNow(): Promise<void> {
    await this.maintainLeases();
  }
}
