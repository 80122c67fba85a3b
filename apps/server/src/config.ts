import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; undefined means embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** The embedded database's shared_buffers (PGLITE_SHARED_BUFFERS, a size such as 32MB); undefined for the default. */
  pgliteSharedBuffers?: string;
  jwtSecret: string;
  refreshSecret: string;
  simulator: boolean;
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
  signupLimitPerHour: number;
  /** Wait after a contact's last message before the queue menu is (re)sent. */
  queueMenuDebounceMs: number;
  /** When open tickets idle for 24 hours are closed: a cron expression (pg-boss schedule), every 5 minutes by default. */
  autoCloseCron: string;
  /**
   * MEDIA_FETCH_PRIVATE=allow (or MEDIA_FETCH_ALLOW_PRIVATE=true) lets a `mediaUrl` reach loopback, private and link-local addresses (tests,
   * development); off by default, so the server cannot be used to probe its own network.
   */
  mediaFetchAllowPrivate: boolean;
  /** The random delay before a group action starts, in ms (§9: 5–15 s); GROUP_ACTION_DELAY_MS=min-max. */
  groupActionDelayMs: { min: number; max: number };
  /** The random pause between two groups of a group action, in ms (private messages use the tab's interval); GROUP_ACTION_PAUSE_MS=min-max. */
  groupActionPauseMs: { min: number; max: number };
}

interface Secrets {
  jwtSecret: string;
  refreshSecret: string;
}

/** Reads the secrets from the environment, or generates them once and keeps them under DATA_DIR. */
function loadSecrets(env: NodeJS.ProcessEnv, dataDir: string): Secrets {
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

/** A size as PostgreSQL writes it (`128kB`, `32MB`, `1GB`); refused at start when it is anything else. */
function parsePostgresSize(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^\d{1,6}(kB|MB|GB)$/.test(value)) throw new Error(`${name} must be a size such as 32MB (kB, MB or GB), not "${value}"`);
  return value;
}

/** `min-max` (whole numbers, min ≤ max), or `fallback` when unset. */
export function parseRange(value: string | undefined, fallback: { min: number; max: number }, name: string): { min: number; max: number } {
  if (!value?.trim()) return fallback;
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  if (!match || Number(match[1]) > Number(match[2])) throw new Error(`${name} must be "min-max" in milliseconds, e.g. 5000-15000.`);
  return { min: Number(match[1]), max: Number(match[2]) };
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  const databaseUrl = overrides.databaseUrl ?? (env.DATABASE_URL || undefined);
  const secrets =
    overrides.jwtSecret && overrides.refreshSecret
      ? { jwtSecret: overrides.jwtSecret, refreshSecret: overrides.refreshSecret }
      : loadSecrets(env, dataDir);
  const simulatorEnv = env.SIMULATOR?.toLowerCase();
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    pgliteSharedBuffers: parsePostgresSize('PGLITE_SHARED_BUFFERS', env.PGLITE_SHARED_BUFFERS),
    ...secrets,
    simulator: simulatorEnv ? simulatorEnv === 'on' || simulatorEnv === 'true' : !databaseUrl,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    webDist: env.WEB_DIST ?? defaultWebDist,
    logLevel: env.LOG_LEVEL ?? 'info',
    nodeId: env.NODE_ID ?? `${process.pid}-${randomUUID().slice(0, 8)}`,
    cookieSecure: env.COOKIE_SECURE === 'true',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    signupLimitPerHour: Number(env.SIGNUP_LIMIT_PER_HOUR ?? 20),
    queueMenuDebounceMs: Number(env.QUEUE_MENU_DEBOUNCE_MS ?? 3000),
    autoCloseCron: env.AUTO_CLOSE_CRON ?? '*/5 * * * *',
    // MEDIA_FETCH_PRIVATE=allow (issue 12's name) and MEDIA_FETCH_ALLOW_PRIVATE=true (the first one) mean the same.
    mediaFetchAllowPrivate: env.MEDIA_FETCH_ALLOW_PRIVATE === 'true' || env.MEDIA_FETCH_PRIVATE === 'allow',
    groupActionDelayMs: parseRange(env.GROUP_ACTION_DELAY_MS, { min: 5000, max: 15000 }, 'GROUP_ACTION_DELAY_MS'),
    groupActionPauseMs: parseRange(env.GROUP_ACTION_PAUSE_MS, { min: 2000, max: 5000 }, 'GROUP_ACTION_PAUSE_MS'),
    ...overrides,
  };
}
