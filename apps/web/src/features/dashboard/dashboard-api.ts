import type { TicketStatus } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

/**
 * Answer of GET /api/dashboard: counters and today's tickets per hour slot (08:00 to 19:00) of the viewer's day (the
 * browser's zone goes in X-Time-Zone), for the caller's queues or those chosen.
 */
export interface DashboardData {
  counts: Record<TicketStatus, number>;
  ticketsPerHour: { hour: string; count: number }[];
}

export const DASHBOARD_KEY = ['dashboard'] as const;

/** Live refresh waits this long after the last ticket event, so a burst costs one request. */
const REFRESH_DEBOUNCE_MS = 500;

/** The dashboard of the queues chosen on the page; without a choice, the caller's own queues (the server's default). */
export function useDashboard(queueIds?: number[]) {
  return useQuery({
    queryKey: [...DASHBOARD_KEY, queueIds ?? 'mine'],
    queryFn: async () =>
      (await api.get<DashboardData>(queueIds ? `/dashboard?queueIds=${encodeURIComponent(JSON.stringify(queueIds))}` : '/dashboard')).data,
    placeholderData: (previous) => previous,
  });
}

/** Refetches the dashboard when tickets change (socket `ticket`), debounced. */
export function useDashboardLiveUpdates(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useSocketEvent('ticket', () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY });
    }, REFRESH_DEBOUNCE_MS);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
}
