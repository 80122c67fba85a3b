import { ATTENTION_STATUSES, type WhatsappDto } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../services/api';
import { useSocket, useSocketEvent } from '../../services/socket';

export const WHATSAPPS_QUERY_KEY = ['whatsapps'] as const;

export function useWhatsapps() {
  return useQuery({
    queryKey: WHATSAPPS_QUERY_KEY,
    meta: { silent: true },
    queryFn: async () => (await api.get<WhatsappDto[]>('/whatsapp')).data,
  });
}

/**
 * Keeps the connections list current from `whatsapp` and `whatsappSession` events, and fetches it again after
 * the socket reconnects (events sent while it was away are lost). Called once, by the app layout: every screen
 * that shows connections (drawer badge, connections and simulator pages, the chat's banner) reads the same cache.
 */
export function useWhatsappsLiveUpdates(): void {
  const queryClient = useQueryClient();
  const socket = useSocket();
  useEffect(() => {
    if (!socket) return undefined;
    let first = !socket.connected;
    const onConnect = () => {
      if (first) {
        first = false;
        return;
      }
      void queryClient.invalidateQueries({ queryKey: WHATSAPPS_QUERY_KEY });
    };
    socket.on('connect', onConnect);
    return () => {
      socket.off('connect', onConnect);
    };
  }, [socket, queryClient]);
  useSocketEvent('whatsapp', (e) => {
    queryClient.setQueryData<WhatsappDto[]>(WHATSAPPS_QUERY_KEY, (list) => {
      if (!list) return list;
      if (e.action === 'delete') return list.filter((w) => w.id !== e.whatsappId);
      const exists = list.some((w) => w.id === e.whatsapp.id);
      return exists ? list.map((w) => (w.id === e.whatsapp.id ? e.whatsapp : w)) : [...list, e.whatsapp];
    });
  });
  useSocketEvent('whatsappSession', (e) => {
    queryClient.setQueryData<WhatsappDto[]>(WHATSAPPS_QUERY_KEY, (list) =>
      list?.map((w) => (w.id === e.session.id ? { ...w, ...e.session } : w)),
    );
  });
}

/** True 2 s after load (§2) when any connection needs attention. */
export function useConnectionsAttention(): boolean {
  const { data } = useWhatsapps();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 2000);
    return () => clearTimeout(timer);
  }, []);
  return ready && !!data?.some((w) => ATTENTION_STATUSES.includes(w.status));
}
