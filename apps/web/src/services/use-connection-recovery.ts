import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './api';
import { connection, retryDelay } from './connection-state';

/**
 * While calls fail with a connection loss, probe the server with backoff (the screen's own queries when
 * it has some, else the health route), so the reconnecting bar goes by itself even when nothing else
 * asks; once the link is back, refetch every query (socket events may have been missed meanwhile).
 */
export function useConnectionRecovery(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let probing = false;
    let attempt = 0;

    const probe = async () => {
      const active = queryClient.getQueryCache().findAll({ type: 'active' });
      // Queries already retrying keep their own backoff (cancelRefetch: false joins them).
      if (active.length > 0) await queryClient.refetchQueries({ type: 'active' }, { cancelRefetch: false });
      else await api.get('/health');
    };
    const run = async () => {
      timer = undefined;
      probing = true;
      try {
        await probe();
      } catch {
        // Still unreachable: the next attempt waits longer.
      } finally {
        probing = false;
      }
      if (!disposed) schedule();
    };
    const schedule = () => {
      if (probing || timer !== undefined) return;
      if (!connection.areRequestsFailing()) {
        attempt = 0;
        return;
      }
      timer = setTimeout(() => void run(), retryDelay(attempt));
      attempt += 1;
    };

    const stopWatching = connection.subscribe(schedule);
    const stopRecovery = connection.onRecovered(() => {
      attempt = 0;
      void queryClient.invalidateQueries();
    });
    schedule();
    return () => {
      disposed = true;
      clearTimeout(timer);
      stopWatching();
      stopRecovery();
    };
  }, [queryClient]);
}
