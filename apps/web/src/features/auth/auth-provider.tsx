import type { AuthResponse, ErrorBody, LoginInput, UserDto } from '@wadesk/contracts';
import { AxiosError } from 'axios';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableNavigate } from '../../app/stable-navigate';
import { api, markLoggedOut, onSessionChange, refreshSession, setSessionToken } from '../../services/api';
import { isConnectionLost, retryDelay } from '../../services/connection-state';
import { toastSuccess } from '../../services/toast-error';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context';

export function AuthProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // The same function at every change of address: the context's value (read by every screen) stays the same while
  // the user moves between pages and tickets (issue 11: each opening of a ticket rendered them all again).
  const navigate = useStableNavigate();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<UserDto | null>(null);
  const [mfaSetupRequired, setMfaSetupRequired] = useState(false);
  const [publicRedirect, setPublicRedirect] = useState('/');
  const clearPublicRedirect = useCallback(() => setPublicRedirect('/'), []);

  // The client reports refreshed tokens and lost sessions.
  useEffect(
    () =>
      onSessionChange((event) => {
        if (event.type === 'refreshed') {
          setUser(event.auth.user);
          setMfaSetupRequired(event.auth.mfaSetupRequired === true);
          setStatus('authenticated');
        } else if (event.type === 'mfaSetupRequired') {
          setMfaSetupRequired(true);
        } else {
          setUser(null);
          setStatus('anonymous');
          queryClient.clear();
        }
      }),
    [queryClient],
  );

  // Start-up: one refresh (through the httpOnly cookie) decides whether a session exists. While the
  // server cannot be reached, keep trying (the reconnecting bar shows) rather than signing out.
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (n: number) => {
      refreshSession().catch((err: unknown) => {
        if (cancelled) return;
        if (isConnectionLost(err)) timer = setTimeout(() => attempt(n + 1), retryDelay(n));
        else markLoggedOut();
      });
    };
    attempt(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, []);

  const signedIn = useCallback(
    (data: AuthResponse) => {
      setSessionToken(data.token);
      // The public route's redirect takes the user to /tickets.
      setPublicRedirect('/tickets');
      setUser(data.user);
      setMfaSetupRequired(data.mfaSetupRequired === true);
      setStatus('authenticated');
      toastSuccess(t('auth.loginSuccess'));
    },
    [t],
  );

  const login = useCallback(
    async (input: LoginInput) => {
      try {
        const { data } = await api.post<AuthResponse>('/auth/login', input);
        signedIn(data);
        return null;
      } catch (err) {
        // Two-factor sign-in is on: the password was right, a code comes next (POST /auth/mfa).
        const body = err instanceof AxiosError ? (err.response?.data as Partial<ErrorBody> | undefined) : undefined;
        if (body?.error === 'ERR_MFA_REQUIRED' && body.mfaToken) return { mfaToken: body.mfaToken };
        throw err;
      }
    },
    [signedIn],
  );

  const completeMfa = useCallback(
    async (mfaToken: string, code: string) => {
      const { data } = await api.post<AuthResponse>('/auth/mfa', { mfaToken, code });
      signedIn(data);
    },
    [signedIn],
  );

  const setMfaEnabled = useCallback((enabled: boolean) => {
    setUser((current) => (current ? { ...current, mfaEnabled: enabled } : current));
    if (enabled) setMfaSetupRequired(false);
  }, []);

  const logout = useCallback(async () => {
    try {
      await api.delete('/auth/logout');
    } catch {
      // The local session ends anyway.
    }
    markLoggedOut();
    navigate('/login');
  }, [navigate]);

  const value = useMemo<AuthContextValue>(
    () => ({ status, publicRedirect, clearPublicRedirect, user, login, completeMfa, mfaSetupRequired, setMfaEnabled, logout, setUser }),
    [status, publicRedirect, clearPublicRedirect, user, login, completeMfa, mfaSetupRequired, setMfaEnabled, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
