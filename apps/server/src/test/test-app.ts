import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AuthResponse, UserDto } from '@wadesk/contracts';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { buildApp, type App, type BuildAppOptions } from '../app.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { RESPONSE_SCHEMA_PROBLEM_HEADER } from '../http/route-schemas.js';
import { openTestDatabase } from './test-database.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-pass-1' };

export interface TestUserInput {
  name?: string;
  email?: string;
  password?: string;
  profile?: 'admin' | 'user';
  whatsappId?: number | null;
  queueIds?: number[];
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  cookies?: Record<string, string>;
  ip?: string;
  headers?: Record<string, string>;
}

export interface TestResponse<T = unknown> {
  status: number;
  body: T;
  cookies: { name: string; value: string; httpOnly?: boolean; path?: string; maxAge?: number }[];
}

export interface TestApp {
  app: App;
  call<T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: CallOptions): Promise<TestResponse<T>>;
  login(email?: string, password?: string): Promise<AuthResponse & { refreshCookie: string }>;
  adminToken(): Promise<string>;
  /** Creates a user through the service and signs them in. */
  createUser(input?: TestUserInput): Promise<{ user: UserDto; token: string; password: string }>;
  /** Listens on a random loopback port (for sockets); returns the base URL. */
  listen(): Promise<string>;
  socket(token: string): Promise<Socket>;
  close(): Promise<void>;
}

let counter = 0;

export interface TestAppOptions extends Omit<BuildAppOptions, 'logger'> {
  /** An open database to use instead of a fresh one (closed with the app). */
  database?: DatabaseHandle;
  /** Where the log goes (at the config's level); without it the app logs nothing. */
  logStream?: BuildAppOptions['logStream'];
  /** A fresh data folder under the system's temp folder (`app.config.dataDir`), removed after close. */
  tempDataDir?: boolean;
}

/** Boots the real app on a fresh database (one per test file: call in beforeAll, or use `useTestApp`). */
export async function createTestApp(overrides: Partial<AppConfig> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { tempDataDir, ...buildOptions } = options;
  const dataDir = tempDataDir ? await mkdtemp(path.join(os.tmpdir(), 'wadesk-test-')) : '/tmp/wadesk-test-data';
  const database: DatabaseHandle = options.database ?? (await openTestDatabase());
  const config = loadConfig(
    { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SIMULATOR: 'on', LOG_LEVEL: 'warn' },
    {
      jwtSecret: 'test-jwt-secret-not-for-production',
      refreshSecret: 'test-refresh-secret-not-for-production',
      dataDir,
      webDist: '/nonexistent',
      ...overrides,
    },
  );
  const app = await buildApp(config, { checkResponseSchemas: true, ...buildOptions, database, logger: Boolean(options.logStream) });
  const sockets: Socket[] = [];
  let cachedAdminToken: string | undefined;
  let baseUrl: string | undefined;

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await app.http.inject({
      method,
      url,
      headers,
      payload: options.body as never,
      cookies: options.cookies,
      remoteAddress: options.ip ?? '127.0.0.1',
    });
    const text = response.body;
    // Every answer a test receives conforms to what its route declares in /api/docs (issue 34 item 3).
    const problem = response.headers[RESPONSE_SCHEMA_PROBLEM_HEADER];
    if (typeof problem === 'string') {
      throw new Error(`${method} ${url} answered ${response.statusCode}, not as its response schema declares: ${decodeURIComponent(problem)}`);
    }
    return {
      status: response.statusCode,
      body: text ? JSON.parse(text) : undefined,
      cookies: response.cookies as TestResponse['cookies'],
    };
  };

  const login: TestApp['login'] = async (email = ADMIN.email, password = ADMIN.password) => {
    const res = await call<AuthResponse>('POST', '/api/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    return { ...res.body, refreshCookie: cookie?.value ?? '' };
  };

  const listen = async () => {
    if (!baseUrl) {
      await app.http.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.http.server.address() as AddressInfo;
      baseUrl = `http://127.0.0.1:${port}`;
    }
    return baseUrl;
  };

  return {
    app,
    call,
    listen,
    login,
    async adminToken() {
      cachedAdminToken ??= (await login()).token;
      return cachedAdminToken;
    },
    async createUser(input = {}) {
      counter += 1;
      const password = input.password ?? 'secret-pass';
      const user = await app.services.users.create({
        name: input.name ?? `User ${counter}`,
        email: input.email ?? `user${counter}-${Date.now()}@test.local`,
        password,
        profile: input.profile ?? 'user',
        whatsappId: input.whatsappId ?? null,
        queueIds: input.queueIds ?? [],
      });
      const { token } = await login(user.email, password);
      return { user, token, password };
    },
    async socket(token) {
      const url = await listen();
      const socket = connectSocket(url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', (err) => reject(err));
      });
      return socket;
    },
    async close() {
      for (const s of sockets) s.disconnect();
      await app.close();
      await database.close();
      if (tempDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface UseTestAppOptions extends TestAppOptions {
  /** Config overrides, as for `createTestApp`. */
  config?: Partial<AppConfig>;
  /** Sign the admin in before the tests: `t.admin`. */
  admin?: boolean;
  /** Create a user with no queue and sign them in before the tests: `t.user`. */
  user?: boolean;
  /** `vi.restoreAllMocks()` after each test. */
  restoreMocks?: boolean;
}

/** The app of a test file (`useTestApp`), with the tokens signed in before the tests. */
export interface FileTestApp extends TestApp {
  /** The admin's access token (`admin: true`). */
  readonly admin: string;
  /** A plain user's access token (`user: true`). */
  readonly user: string;
}

/**
 * One test app for the whole file: boots it in beforeAll, closes it in afterAll. Call at the top level;
 * the object it returns works from the hooks and tests on. Its own beforeAll runs before the file's.
 */
export function useTestApp(options: UseTestAppOptions = {}): FileTestApp {
  const { config, admin, user, restoreMocks, ...appOptions } = options;
  let current: TestApp | undefined;
  let adminToken: string | undefined;
  let userToken: string | undefined;

  beforeAll(async () => {
    current = await createTestApp(config, appOptions);
    if (admin) adminToken = await current.adminToken();
    if (user) userToken = (await current.createUser()).token;
  });
  afterAll(async () => {
    await current?.close();
  });
  if (restoreMocks) {
    afterEach(() => {
      vi.restoreAllMocks();
    });
  }

  const started = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app starts in beforeAll; use it in hooks and tests');
    return current;
  };
  const token = (value: string | undefined, option: 'admin' | 'user'): string => {
    if (value === undefined) throw new Error(`useTestApp({ ${option}: true }) signs that token in`);
    return value;
  };
  return {
    get app() {
      return started().app;
    },
    get admin() {
      return token(adminToken, 'admin');
    },
    get user() {
      return token(userToken, 'user');
    },
    call: (method, url, callOptions) => started().call(method, url, callOptions),
    login: (email, password) => started().login(email, password),
    adminToken: () => started().adminToken(),
    createUser: (input) => started().createUser(input),
    listen: () => started().listen(),
    socket: (socketToken) => started().socket(socketToken),
    close: () => started().close(),
  };
}

/** Resolves with the next event of that name on the socket, or rejects after `ms`. */
export function nextEvent<T>(socket: Socket, event: string, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' event within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}
