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
  login: (input: LoginInput) => Promise<void>;
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
