import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GRAPH_URL } from './channels/cloud-api/graph-client.js';

export interface AppConfig {
  port: number;
  /** The address the server listens on (HOST): 127.0.0.1 on the embedded database, 0.0.0.0 with DATABASE_URL. */
  host: string;
  dataDir: string;
  /** PostgreSQL URL; undefined means embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** The embedded database's shared_buffers (PGLITE_SHARED_BUFFERS, a size such as 32MB); undefined for the default. */
  pgliteSharedBuffers?: string;
  jwtSecret: string;
  refreshSecret: string;
  simulator: boolean;
  /** The simulator's network time for a number check or a text, in ms (SIMULATOR_LATENCY_MS=min-max; 0 by default). */
  simulatorLatencyMs: { min: number; max: number };
  adminEmail?: string;
  adminPassword?: string;
  /** Folder of the built web app, served at `/` when it exists. */
  webDist: string;
  logLevel: string;
  /** Identifies this process for connection leases. */
  nodeId: string;
  cookieSecure: boolean;
  /**
   * Which proxies may set the client address (X-Forwarded-For), from TRUST_PROXY: a hop count, or addresses
   * and CIDR ranges separated by commas. false (the default) trusts nothing: the address is the socket's.
   */
  trustProxy: TrustProxy;
  /**
   * Origins of a separately served front end allowed to call the API and Socket.IO with credentials (CORS_ORIGINS,
   * comma-separated `scheme://host[:port]`); none by default: only the app's own origin.
   */
  corsOrigins: string[];
  signupLimitPerHour: number;
  /** Wait after a contact's last message before the queue menu is (re)sent. */
  queueMenuDebounceMs: number;
  /** How long one request to Typebot's chat API may take (TYPEBOT_TIMEOUT_MS, 15 s by default). */
  typebotTimeoutMs: number;
  /** When open tickets idle for 24 hours are closed: a cron expression (pg-boss schedule), every 5 minutes by default. */
  /** When open tickets idle for 24 hours are closed (a cron expression); null: never (`AUTO_CLOSE_CRON=off`). */
  autoCloseCron: string | null;
  /**
   * MEDIA_FETCH_PRIVATE=allow (or MEDIA_FETCH_ALLOW_PRIVATE=true) lets a `mediaUrl` reach any address, not only public unicast ones
   * (loopback, private, link-local, reserved: tests, development); off by default, so the server cannot be used to probe its own network.
   */
  mediaFetchAllowPrivate: boolean;
  /** FFMPEG_PATH: the ffmpeg that converts audio; unset: the system's (/usr/bin/ffmpeg), else the bundled 2018 build. */
  ffmpegPath?: string;
  /** The random delay before a group action starts, in ms (§9: 5–15 s); GROUP_ACTION_DELAY_MS=min-max. */
  groupActionDelayMs: { min: number; max: number };
  /** The random pause between two groups of a group action, in ms (private messages use the tab's interval); GROUP_ACTION_PAUSE_MS=min-max. */
  groupActionPauseMs: { min: number; max: number };
  /**
   * How long a due scheduled message waits for its connection to be CONNECTED (a restart, a reconnect) before it
   * fails with the reason, in ms; SCHEDULE_CONNECTION_WAIT_MS (60 s by default).
   */
  scheduleConnectionWaitMs: number;
  /** Vonage's SMS API (VONAGE_REST_URL, https://rest.nexmo.com) and Voice API (VONAGE_API_URL, https://api.nexmo.com). */
  vonageRestUrl: string;
  vonageApiUrl: string;
  /** Meta's Graph API for Instagram direct (INSTAGRAM_GRAPH_URL, https://graph.facebook.com/v21.0). */
  instagramGraphUrl: string;
  /** The pause between two sends of an SMS or voice-call batch, in ms (§9: about 5 s); OUTREACH_PAUSE_MS. */
  outreachPauseMs: number;
  /** The random pause between two Instagram direct messages, in ms (§9: 5–15 s, like group actions); INSTAGRAM_PAUSE_MS=min-max. */
  instagramPauseMs: { min: number; max: number };
  /** How long a provider may take to answer one send, in ms; PROVIDER_TIMEOUT_MS (20 s). */
  providerTimeoutMs: number;
  /** The Graph API's base URL for `cloud-api` connections (WHATSAPP_GRAPH_URL; Meta's by default): tests point it at a loopback server. */
  whatsappGraphUrl: string;
  /**
   * How long a graceful shutdown (SIGTERM, SIGINT) waits for in-flight requests, sends and jobs before it closes
   * the rest anyway, in ms; SHUTDOWN_TIMEOUT_MS (10 s by default).
   */
  shutdownTimeoutMs: number;
  /**
   * Prometheus metrics at GET /metrics (METRICS_ENABLED; on by default only when METRICS_TOKEN is set), behind
   * `Authorization: Bearer <metricsToken>` (METRICS_TOKEN, at least 16 characters). Off: the route does not exist.
   */
  metricsEnabled: boolean;
  metricsToken?: string;
  /**
   * Where the user guide is published elsewhere (GUIDE_URL, an http(s) URL; `{lang}` becomes `en` or `pt`): the user
   * menu's Help opens it instead of the guide this server serves at /guide/ (decision 0036).
   */
  guideUrl?: string;
  /** The user guide's folder (GUIDE_DIR; docs/guide of the repository by default), served at /guide/. */
  guideDir: string;
}

interface Secrets {
  jwtSecret: string;
  refreshSecret: string;
}

/** Reads the secrets from the environment, or generates them once and keeps them under DATA_DIR. */
function loadSecrets(env: NodeJS.ProcessEnv, dataDir: string): Secrets {
  // An empty value is unset (docker-compose passes `JWT_SECRET: ${JWT_SECRET:-}` as ''): never an empty secret.
  env = { ...env, JWT_SECRET: env.JWT_SECRET || undefined, JWT_REFRESH_SECRET: env.JWT_REFRESH_SECRET || undefined };
  if (env.JWT_SECRET && env.JWT_REFRESH_SECRET) {
    return { jwtSecret: env.JWT_SECRET, refreshSecret: env.JWT_REFRESH_SECRET };
  }
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Secrets;
    return { jwtSecret: env.JWT_SECRET ?? stored.jwtSecret, refreshSecret: env.JWT_REFRESH_SECRET ?? stored.refreshSecret };
  }
  mkdirSync(dataDir, { recursive: true });
  const generated: Secrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    refreshSecret: randomBytes(48).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(generated), { mode: 0o600 });
  return { jwtSecret: env.JWT_SECRET ?? generated.jwtSecret, refreshSecret: env.JWT_REFRESH_SECRET ?? generated.refreshSecret };
}

/** Fastify's trustProxy: nothing, addresses/CIDRs, or which hops (0 = the socket's peer) to trust. */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY: unset, empty, `false` or `0` trust no proxy; a whole number trusts that many hops in front of
 * the app; otherwise a comma-separated list of addresses or CIDR ranges (`127.0.0.1,10.0.0.0/8`). `true`
 * is refused: it would let any client pick its own address and walk past the rate limits.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return (_address: string, hop: number) => hop < hops;
  }
  if (text === 'true') {
    throw new Error('TRUST_PROXY=true would trust any client: give the number of proxies (e.g. 1) or their addresses.');
  }
  const addresses = text.split(',').map((a) => a.trim()).filter(Boolean);
  return addresses.length > 0 ? addresses : false;
}

/**
 * CORS_ORIGINS: comma-separated origins (`https://desk.example.com,http://localhost:3000`), each exactly an origin
 * (no path, query or wildcard: credentials are never shared with `*`); refused at start otherwise.
 */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = new Set<string>();
  for (const text of (value ?? '').split(',').map((o) => o.trim()).filter(Boolean)) {
    let origin: string | undefined;
    try {
      // Scheme and host (and port) alone; the browser's Origin never has a default port, so :443 is dropped here too.
      if (/^https?:\/\/[^/?#*@\s]+\/?$/i.test(text)) origin = new URL(text).origin;
    } catch {
      origin = undefined;
    }
    if (!origin) {
      throw new Error(`CORS_ORIGINS must list origins such as https://desk.example.com (scheme, host and port only), not "${text}"`);
    }
    origins.add(origin);
  }
  return [...origins];
}

/** A size as PostgreSQL writes it (`128kB`, `32MB`, `1GB`); refused at start when it is anything else. */
function parsePostgresSize(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^\d{1,6}(kB|MB|GB)$/.test(value)) throw new Error(`${name} must be a size such as 32MB (kB, MB or GB), not "${value}"`);
  return value;
}

/** A whole number of milliseconds (0 up to a day), or `fallback` when unset; refused at start when it is anything else. */
function parseMs(name: string, value: string | undefined, fallback: number): number {
  if (!value?.trim()) return fallback;
  if (!/^\s*\d{1,8}\s*$/.test(value) || Number(value) > 86_400_000) throw new Error(`${name} must be a whole number of milliseconds (0 to 86400000), not "${value}"`);
  return Number(value);
}

/** A whole number from `min` to `max`, or `fallback` when unset; refused at start when it is anything else. */
function parseWhole(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (!value?.trim()) return fallback;
  const n = Number(value);
  if (!/^\s*\d{1,9}\s*$/.test(value) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

/** An http(s) base URL without its trailing slashes, or `fallback` when unset; refused at start when it is anything else. */
function parseBaseUrl(name: string, value: string | undefined, fallback: string): string {
  const text = value?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be an http(s) URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, not "${text}"`);
  return text.replace(/\/+$/, '');
}

/** GUIDE_URL: an http(s) URL, where `{lang}` stands for the guide's language; undefined when unset. */
export function parseGuideUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text.replaceAll('{lang}', 'en'));
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new Error(`GUIDE_URL must be an http(s) URL, not "${text}"`);
  return text;
}

/** `min-max` (whole numbers, min ≤ max), or `fallback` when unset. */
export function parseRange(value: string | undefined, fallback: { min: number; max: number }, name: string): { min: number; max: number } {
  if (!value?.trim()) return fallback;
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  if (!match || Number(match[1]) > Number(match[2])) throw new Error(`${name} must be "min-max" in milliseconds, e.g. 5000-15000.`);
  return { min: Number(match[1]), max: Number(match[2]) };
}

/** METRICS_ENABLED / METRICS_TOKEN: off unless asked for; on needs a token of at least 16 characters. */
export function parseMetrics(enabled: string | undefined, token: string | undefined): { metricsEnabled: boolean; metricsToken?: string } {
  const text = enabled?.trim().toLowerCase() ?? '';
  if (text !== '' && text !== 'true' && text !== 'false') throw new Error(`METRICS_ENABLED must be true or false, not "${enabled}"`);
  const metricsToken = token?.trim() || undefined;
  // Unset: a token alone turns the metrics on; METRICS_ENABLED=false keeps them off whatever the token.
  const metricsEnabled = text === '' ? metricsToken !== undefined : text === 'true';
  if (!metricsEnabled) return { metricsEnabled: false };
  if (!metricsToken) throw new Error('METRICS_ENABLED=true needs METRICS_TOKEN (at least 16 characters): /metrics is never open to anyone.');
  if (metricsToken.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters long.');
  return { metricsEnabled, metricsToken };
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const defaultGuideDir = fileURLToPath(new URL('../../../docs/guide', import.meta.url));

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  const databaseUrl = overrides.databaseUrl ?? (env.DATABASE_URL || undefined);
  const secrets =
    overrides.jwtSecret && overrides.refreshSecret
      ? { jwtSecret: overrides.jwtSecret, refreshSecret: overrides.refreshSecret }
      : loadSecrets(env, dataDir);
  const simulatorEnv = env.SIMULATOR?.toLowerCase();
  return {
    port: parseWhole('PORT', env.PORT, 8080, 0, 65_535),
    // The embedded database is a one-machine setup: only this machine reaches it unless HOST says otherwise.
    host: env.HOST || (databaseUrl ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    databaseUrl,
    pgliteSharedBuffers: parsePostgresSize('PGLITE_SHARED_BUFFERS', env.PGLITE_SHARED_BUFFERS),
    ...secrets,
    simulator: simulatorEnv ? simulatorEnv === 'on' || simulatorEnv === 'true' : !databaseUrl,
    simulatorLatencyMs: parseRange(env.SIMULATOR_LATENCY_MS, { min: 0, max: 0 }, 'SIMULATOR_LATENCY_MS'),
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    webDist: env.WEB_DIST ?? defaultWebDist,
    logLevel: env.LOG_LEVEL ?? 'info',
    nodeId: env.NODE_ID ?? `${process.pid}-${randomUUID().slice(0, 8)}`,
    cookieSecure: env.COOKIE_SECURE === 'true',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    signupLimitPerHour: parseWhole('SIGNUP_LIMIT_PER_HOUR', env.SIGNUP_LIMIT_PER_HOUR, 20, 0, 1_000_000),
    queueMenuDebounceMs: parseMs('QUEUE_MENU_DEBOUNCE_MS', env.QUEUE_MENU_DEBOUNCE_MS, 3000),
    typebotTimeoutMs: parseMs('TYPEBOT_TIMEOUT_MS', env.TYPEBOT_TIMEOUT_MS, 15_000),
    autoCloseCron: env.AUTO_CLOSE_CRON?.trim().toLowerCase() === 'off' ? null : (env.AUTO_CLOSE_CRON ?? '*/5 * * * *'),
    // MEDIA_FETCH_PRIVATE=allow (issue 12's name) and MEDIA_FETCH_ALLOW_PRIVATE=true (the first one) mean the same.
    mediaFetchAllowPrivate: env.MEDIA_FETCH_ALLOW_PRIVATE === 'true' || env.MEDIA_FETCH_PRIVATE === 'allow',
    ffmpegPath: env.FFMPEG_PATH?.trim() || undefined,
    groupActionDelayMs: parseRange(env.GROUP_ACTION_DELAY_MS, { min: 5000, max: 15000 }, 'GROUP_ACTION_DELAY_MS'),
    groupActionPauseMs: parseRange(env.GROUP_ACTION_PAUSE_MS, { min: 2000, max: 5000 }, 'GROUP_ACTION_PAUSE_MS'),
    scheduleConnectionWaitMs: parseMs('SCHEDULE_CONNECTION_WAIT_MS', env.SCHEDULE_CONNECTION_WAIT_MS, 60_000),
    vonageRestUrl: parseBaseUrl('VONAGE_REST_URL', env.VONAGE_REST_URL, 'https://rest.nexmo.com'),
    vonageApiUrl: parseBaseUrl('VONAGE_API_URL', env.VONAGE_API_URL, 'https://api.nexmo.com'),
    instagramGraphUrl: parseBaseUrl('INSTAGRAM_GRAPH_URL', env.INSTAGRAM_GRAPH_URL, 'https://graph.facebook.com/v21.0'),
    outreachPauseMs: parseMs('OUTREACH_PAUSE_MS', env.OUTREACH_PAUSE_MS, 5000),
    instagramPauseMs: parseRange(env.INSTAGRAM_PAUSE_MS, { min: 5000, max: 15000 }, 'INSTAGRAM_PAUSE_MS'),
    providerTimeoutMs: parseMs('PROVIDER_TIMEOUT_MS', env.PROVIDER_TIMEOUT_MS, 20_000),
    whatsappGraphUrl: parseBaseUrl('WHATSAPP_GRAPH_URL', env.WHATSAPP_GRAPH_URL, DEFAULT_GRAPH_URL),
    shutdownTimeoutMs: parseMs('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000),
    ...parseMetrics(env.METRICS_ENABLED, env.METRICS_TOKEN),
    guideUrl: parseGuideUrl(env.GUIDE_URL),
    guideDir: path.resolve(env.GUIDE_DIR?.trim() || defaultGuideDir),
    ...overrides,
  };
}
