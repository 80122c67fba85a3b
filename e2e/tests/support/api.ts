import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** The admin the e2e server starts with (see playwright.config.ts). */
export const ADMIN = { email: 'admin@e2e.local', password: 'admin-e2e-pass' };

let seq = 0;
/** A unique suffix for names, e-mails and phone numbers within one run. */
export function unique(): string {
  seq += 1;
  return `${Date.now().toString(36)}${seq}`;
}

/**
 * Signs in through the API and answers the access token.
 * Pass the `request` fixture, not `page.request`: `page.request` shares the browser's cookies, so the
 * refresh cookie of this login would silently sign the page in (as the admin, for createUser & co.).
 */
export async function apiLogin(request: APIRequestContext, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** An API call with a bearer token; fails the test on an unexpected status. */
export async function api<T = any>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Creates a user through the API (as admin). */
export async function createUser(
  request: APIRequestContext,
  input: { name?: string; email?: string; password?: string; profile?: 'admin' | 'user'; queueIds?: number[] } = {},
) {
  const token = await apiLogin(request);
  const id = unique();
  const body = {
    name: input.name ?? `User ${id}`,
    email: input.email ?? `user-${id}@e2e.local`,
    password: input.password ?? 'user-pass-1',
    profile: input.profile ?? 'user',
    queueIds: input.queueIds ?? [],
  };
  const user = await api<{ id: number; name: string; email: string }>(request, token, 'POST', '/api/users', body);
  return { ...user, password: body.password };
}

/** Signs in through the login page and waits for /tickets. */
export async function uiLogin(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.goto('/login');
  // Labels and the submit button of the login page in en / pt / es ("Enter" / "Entrar" / "Ingresar").
  await page.getByLabel(/^(e-?mail|correo)/i).fill(email);
  await page.getByLabel(/^(password|senha|contraseña)$/i).fill(password);
  await page.getByRole('button', { name: /^(enter|entrar|ingresar|sign in|log ?in)$/i }).click();
  await page.waitForURL('**/tickets**');
}

/** A simulator connection, paired (CONNECTED). */
export async function connectedSimulator(request: APIRequestContext, input: { name?: string; queueIds?: number[]; greetingMessage?: string; farewellMessage?: string; isDefault?: boolean } = {}) {
  const token = await apiLogin(request);
  const connection = await api<{ id: number; name: string }>(request, token, 'POST', '/api/whatsapp', {
    name: input.name ?? `Sim ${unique()}`,
    channel: 'simulator',
    ...input,
  });
  await expect
    .poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/whatsapp/${connection.id}`)).status, { timeout: 10_000 })
    .toBe('qrcode');
  await api(request, token, 'POST', `/api/simulator/${connection.id}/scan`);
  await expect
    .poll(async () => (await api<{ status: string }>(request, token, 'GET', `/api/whatsapp/${connection.id}`)).status, { timeout: 10_000 })
    .toBe('CONNECTED');
  return connection;
}

/** A contact writes to a connection through the simulator. */
export async function contactWrites(
  request: APIRequestContext,
  whatsappId: number,
  message: { from: string; body?: string; name?: string; id?: string; mediaType?: string; mediaUrl?: string; groupId?: string; groupName?: string },
) {
  const token = await apiLogin(request);
  return api<{ id: string }>(request, token, 'POST', `/api/simulator/${whatsappId}/inbound`, message);
}

/** The tools of the setting attendantTools (issue 32); all of them is the default. */
export const ALL_ATTENDANT_TOOLS = 'bulk,groups,schedules,history,chatbot,email,instagram,sms,voice,contactsImport,contactsExport';

/** Runs `run` with attendantTools at `value`, then puts every tool back (the workers run one at a time). */
export async function withAttendantTools(request: APIRequestContext, value: string, run: () => Promise<void>): Promise<void> {
  const admin = await apiLogin(request);
  await api(request, admin, 'PUT', '/api/settings/attendantTools', { value });
  try {
    await run();
  } finally {
    await api(request, admin, 'PUT', '/api/settings/attendantTools', { value: ALL_ATTENDANT_TOOLS });
  }
}
