import axios, { AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import type { AuthResponse, ErrorBody } from '@wadesk/contracts';
import { clearToken, getToken, setToken } from './token-storage';

/** The one HTTP client: same origin, cookies on, bearer token from local storage. */
export const api = axios.create({ baseURL: '/api', withCredentials: true });

type SessionListener = (event: { type: 'refreshed'; auth: AuthResponse } | { type: 'loggedOut' }) => void;
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

/** Exchanges the refresh cookie for a new access token; concurrent callers share one request. */
export function refreshSession(): Promise<AuthResponse> {
  refreshing ??= api
    .post<AuthResponse>('/auth/refresh_token')
    .then(({ data }) => {
      setToken(data.token);
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

const NO_REFRESH_CODES = new Set(['ERR_NO_PERMISSION', 'ERR_USER_CREATION_DISABLED']);

api.interceptors.response.use(undefined, async (error: unknown) => {
  if (!(error instanceof AxiosError) || !error.response) throw error;
  const config = error.config as RetriableConfig | undefined;
  const status = error.response.status;
  const code = (error.response.data as Partial<ErrorBody> | undefined)?.error;

  if (status === 403 && config && !config._retried && !isAuthCall(config) && !NO_REFRESH_CODES.has(code ?? '')) {
    config._retried = true;
    try {
      await refreshSession();
    } catch {
      markLoggedOut();
      throw error;
    }
    return api.request(config);
  }
  if (status === 401 && !isAuthCall(config)) {
    markLoggedOut();
  }
  throw error;
});
