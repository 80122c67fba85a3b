import axios, { AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import type { AuthResponse, ErrorBody } from '@wadesk/contracts';
import { connection, isConnectionLost } from './connection-state';
import { clearToken, getToken, setToken, tokenLifetimeMs } from './token-storage';

/** The browser's IANA time zone: the server counts "today", its hours and day filters in it (issue 32 §5). */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one HTTP client: same origin, cookies on, bearer token from memory (token-storage), and the viewer's time zone
 * in `X-Time-Zone` on every call.
 */
export const api = axios.create({ baseURL: '/api', withCredentials: true });
const timeZone = browserTimeZone();
if (timeZone) api.defaults.headers.common['X-Time-Zone'] = timeZone;

type SessionListener = (
  event: { type: 'refreshed'; auth: AuthResponse } | { type: 'loggedOut' } | { type: 'mfaSetupRequired' },
) => void;
const listeners = new Set<SessionListener>();

/** Subscribe to session changes made by the client itself (token refreshed, session lost). */
export function onSessionChange(listener: SessionListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function emit(event: Parameters<SessionListener>[0]): void {
  for (const listener of listeners) listener(event);
}

const AUTH_PATHS = ['/auth/login', '/auth/refresh_token', '/auth/signup', '/auth/logout'];
const isAuthCall = (config?: AxiosRequestConfig) => AUTH_PATHS.some((p) => config?.url?.startsWith(p));

let refreshing: Promise<AuthResponse> | null = null;
let renewTimer: ReturnType<typeof setTimeout> | undefined;

/** A refresh holds the tabs' lock: it must not hang. */
const REFRESH_TIMEOUT_MS = 20_000;

/** Renew this long before the access token expires (the server closes a socket whose token expired). */
const RENEW_AHEAD_MS = 60_000;

/**
 * Keeps a new access token (in memory only) and plans its renewal shortly before it expires, so an idle
 * tab's socket is handed a fresh token (`authenticate`) instead of being closed by the server.
 */
export function setSessionToken(token: string): void {
  setToken(token);
  clearTimeout(renewTimer);
  const lifetime = tokenLifetimeMs(token);
  if (lifetime === null) return;
  renewTimer = setTimeout(
    () => {
      refreshSession().catch((err: unknown) => {
        // Unreachable server: the next call's 403 (or the socket) refreshes once it is back.
        if (!isConnectionLost(err) && getToken() === token) markLoggedOut();
      });
    },
    Math.max(lifetime - RENEW_AHEAD_MS, lifetime / 2),
  );
}

/**
 * Runs a refresh under a lock shared by the app's tabs (Web Locks API, where available). The refresh
 * token rotates and the server refuses an already-rotated one, so two tabs must not present the same
 * cookie at once: the second one waits and then sends the cookie the first one received.
 */
function oneTabAtATime<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request('wadesk-refresh-token', () => run()) as unknown as Promise<T>) : run();
}

/** Exchanges the refresh cookie for a new access token; concurrent callers share one request. */
export function refreshSession(): Promise<AuthResponse> {
  refreshing ??= oneTabAtATime(() => api.post<AuthResponse>('/auth/refresh_token', undefined, { timeout: REFRESH_TIMEOUT_MS }))
    .then(({ data }) => {
      setSessionToken(data.token);
      emit({ type: 'refreshed', auth: data });
      return data;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Forgets the session locally (token and listeners' state). */
export function markLoggedOut(): void {
  clearTimeout(renewTimer);
  clearToken();
  emit({ type: 'loggedOut' });
}

api.interceptors.request.use((config) => {
  const token = getToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

interface RetriableConfig extends InternalAxiosRequestConfig {
  _retried?: boolean;
}

const NO_REFRESH_CODES = new Set(['ERR_NO_PERMISSION', 'ERR_USER_CREATION_DISABLED', 'ERR_MFA_SETUP_REQUIRED']);
/** A 401 about what the user typed (a password, a code of two-factor sign-in), not about the session: no sign-out. */
const TYPED_CREDENTIAL_CODES = new Set(['ERR_INVALID_CREDENTIALS', 'ERR_INVALID_MFA_CODE']);

api.interceptors.response.use(
  (response) => {
    connection.reportRequestSuccess();
    return response;
  },
  async (error: unknown) => {
    // Server or database unreachable: the reconnecting bar shows; never a reason to refresh or sign out.
    if (connection.reportRequestFailure(error)) throw error;
    if (!(error instanceof AxiosError) || !error.response) throw error;
    const config = error.config as RetriableConfig | undefined;
    const status = error.response.status;
    const code = (error.response.data as Partial<ErrorBody> | undefined)?.error;

    // An admin who must turn on two-factor sign-in first (mfaRequiredForAdmins): the app shows its set-up.
    if (status === 403 && code === 'ERR_MFA_SETUP_REQUIRED') emit({ type: 'mfaSetupRequired' });
    if (status === 403 && config && !config._retried && !isAuthCall(config) && !NO_REFRESH_CODES.has(code ?? '')) {
      config._retried = true;
      try {
        await refreshSession();
      } catch (refreshError) {
        // Unreachable server: the session may still be good; the caller retries once it is back.
        if (isConnectionLost(refreshError)) throw refreshError;
        markLoggedOut();
        throw error;
      }
      return api.request(config);
    }
    if (status === 401 && !isAuthCall(config) && !TYPED_CREDENTIAL_CODES.has(code ?? '')) {
      markLoggedOut();
    }
    throw error;
  },
);

/** Downloads a file of the API (with the bearer token, which a plain link cannot send) and saves it as `filename`. */
export async function downloadFile(url: string, filename: string): Promise<void> {
  const { data } = await api.get<Blob>(url, { responseType: 'blob' });
  const objectUrl = URL.createObjectURL(data);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
  }
}
