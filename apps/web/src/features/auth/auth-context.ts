import type { LoginInput, UserDto } from '@wadesk/contracts';
import { createContext, useContext } from 'react';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthContextValue {
  status: AuthStatus;
  /** Where a signed-in user on a public route goes: /tickets right after login (§2), else /. */
  publicRedirect: string;
  /** Called once the private area is shown, so later visits to a public route go to /. */
  clearPublicRedirect: () => void;
  user: UserDto | null;
  /** Signs in; with two-factor sign-in on, answers the password step's token for `completeMfa` instead. */
  login: (input: LoginInput) => Promise<{ mfaToken: string } | null>;
  /** The sign-in's second step: the password step's token and a code (of the app, or a recovery code). */
  completeMfa: (mfaToken: string, code: string) => Promise<void>;
  /** An admin who must turn on two-factor sign-in before anything else (setting mfaRequiredForAdmins). */
  mfaSetupRequired: boolean;
  /** Two-factor sign-in was just turned on (or off) for the signed-in user. */
  setMfaEnabled: (enabled: boolean) => void;
  logout: () => Promise<void>;
  /** Replace the signed-in user's data (after a profile edit or a live update). */
  setUser: (user: UserDto) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
