import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { AuthProvider } from '../features/auth/auth-provider';
import { SocketProvider } from '../services/socket';
import { toastError } from '../services/toast-error';
import { AppRoutes } from './routes';
import { theme } from './theme';

const queryClient = new QueryClient({
  // A failed load shows its error toast, unless the query asks to stay quiet (meta.silent).
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (!query.meta?.silent) toastError(err);
    },
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

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
          </AuthProvider>
        </BrowserRouter>
      </QueryClientProvider>
      {/* Below the 48 px app bar, so toasts never cover its buttons. */}
      <ToastContainer position="top-right" autoClose={3000} newestOnTop closeOnClick style={{ top: 64 }} />
    </ThemeProvider>
  );
}
