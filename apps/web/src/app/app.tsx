import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { ConnectionBanner } from '../components/connection-banner';
import { useAuth } from '../features/auth/auth-context';
import { AuthProvider } from '../features/auth/auth-provider';
import { retryDelay, shouldRetry } from '../services/connection-state';
import { SocketProvider } from '../services/socket';
import { toastError } from '../services/toast-error';
import { useConnectionRecovery } from '../services/use-connection-recovery';
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

/** The reconnecting bar and the recovery that refetches once the server is back. */
function ConnectionLayer() {
  useConnectionRecovery();
  const { status } = useAuth();
  return <ConnectionBanner belowAppBar={status === 'authenticated'} />;
}

/**
 * At the bottom-left, where they hide nothing: not the app bar, not the ticket header's actions, not the
 * send button (bottom-right). On phones react-toastify spans the width at the bottom.
 */
function Toasts() {
  return <ToastContainer position="bottom-left" autoClose={3000} newestOnTop closeOnClick />;
}

export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AuthProvider>
            <SocketProvider>
              <AppRoutes />
            </SocketProvider>
            <ConnectionLayer />
          </AuthProvider>
        </BrowserRouter>
      </QueryClientProvider>
      <Toasts />
    </ThemeProvider>
  );
}
