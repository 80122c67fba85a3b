import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { BrowserRouter } from 'react-router-dom';
import type { ToastContainerProps } from 'react-toastify';
import { useAuth } from '../features/auth/auth-context';
import { AuthProvider } from '../features/auth/auth-provider';
import { StableNavigateProvider } from './stable-navigate';
import { connection, retryDelay, shouldRetry } from '../services/connection-state';
import { loadToastify, onToastifyRequested, toastError } from '../services/toast-error';
import { useConnectionRecovery } from '../services/use-connection-recovery';
import { whenIdle } from './lazy-page';
import { AppRoutes } from './routes';
import { theme } from './theme';

const queryClient = new QueryClient({
  // A failed load shows its error toast, unless the query asks to stay quiet (meta.silent) or the server
  // cannot be reached (the reconnecting bar shows instead; see connection-state.ts).
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (!query.meta?.silent) toastError(err);
    },
  }),
  defaultOptions: {
    // Connection losses (server down, 503 ERR_DB_UNAVAILABLE) are retried with backoff; other errors are not.
    queries: { retry: shouldRetry, retryDelay: (attempt) => retryDelay(attempt), refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

// The reconnecting bar is not needed to show the first screen: it loads once the browser is idle (or at once if the
// connection drops before), then stays mounted. Should its code not load, there is no bar rather than no app.
type BannerModule = { default: ComponentType<{ belowAppBar: boolean }> };
const ConnectionBanner = lazy(
  (): Promise<BannerModule> =>
    import('../components/connection-banner').then(
      (m) => ({ default: m.ConnectionBanner }),
      () => ({ default: () => null }),
    ),
);

/** The reconnecting bar and the recovery that refetches once the server is back. */
function ConnectionLayer() {
  useConnectionRecovery();
  const { status } = useAuth();
  const reconnecting = useSyncExternalStore(connection.subscribe, connection.isReconnecting, () => false);
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  if (!idle && !reconnecting) return null;
  return (
    <Suspense fallback={null}>
      <ConnectionBanner belowAppBar={status === 'authenticated'} />
    </Suspense>
  );
}

// react-toastify is not needed to show the first screen: its container mounts once the browser is idle, or as soon
// as a toast asks for it (see loadToastify); toasts shown meanwhile wait in react-toastify's queue. Should its code
// not load, there are no toasts rather than no app.
type ToastContainerModule = { default: ComponentType<ToastContainerProps> };
const ToastContainer = lazy(
  (): Promise<ToastContainerModule> =>
    loadToastify().then(
      (m) => ({ default: m.ToastContainer }),
      () => ({ default: () => null }),
    ),
);

/**
 * At the bottom-left, where they hide nothing: not the app bar, not the ticket header's actions, not the
 * send button (bottom-right). On phones react-toastify spans the width at the bottom.
 */
function Toasts() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const stopIdle = whenIdle(() => setWanted(true));
    const stopRequested = onToastifyRequested(() => setWanted(true));
    return () => {
      stopIdle();
      stopRequested();
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer position="bottom-left" autoClose={3000} newestOnTop closeOnClick />
    </Suspense>
  );
}

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <StableNavigateProvider>
            <AuthProvider>
              {/* The socket lives in the signed-in layout (see private-layout.tsx): the login page has none. */}
              <AppRoutes />
              <ConnectionLayer />
            </AuthProvider>
          </StableNavigateProvider>
        </BrowserRouter>
      </QueryClientProvider>
      <Toasts />
    </ThemeProvider>
  );
}
