import { createContext, useCallback, useContext, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useNavigate, type NavigateOptions } from 'react-router-dom';

type Navigate = (to: string, options?: NavigateOptions) => void;

const StableNavigateContext = createContext<Navigate | null>(null);

/**
 * Gives the app one navigate function that stays the same across navigations. React Router's useNavigate returns a
 * new one at every change of address, so each component calling it renders again each time a ticket is opened (the
 * bell, the menus, the lists; the auth context's value, and with it every screen reading it: issue 11). Only this
 * provider renders again; what it passes down does not change. For absolute paths (all the app uses), it is the same
 * navigation.
 */
export function StableNavigateProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const latest = useRef(navigate);
  useLayoutEffect(() => {
    latest.current = navigate;
  });
  const stable = useCallback<Navigate>((to, options) => void latest.current(to, options), []);
  return <StableNavigateContext.Provider value={stable}>{children}</StableNavigateContext.Provider>;
}

/** Navigates like useNavigate's function, without rendering the caller again on every change of address. */
export function useStableNavigate(): Navigate {
  const navigate = useContext(StableNavigateContext);
  if (!navigate) throw new Error('useStableNavigate outside StableNavigateProvider');
  return navigate;
}
