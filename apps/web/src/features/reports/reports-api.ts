import type { AttendantsReport, DailyReport, QueuesReport } from '@wadesk/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../services/api';

/** The period and queues a report covers: days (YYYY-MM-DD, included) in the browser's zone (sent as X-Time-Zone). */
export interface ReportParams {
  from: string;
  to: string;
  /** Only these queues; all (admins) or every queue of their work (attendants) when absent. */
  queueIds?: number[];
}

export const REPORTS_KEY = ['reports'] as const;

function query(params: ReportParams): string {
  const search = new URLSearchParams({ from: params.from, to: params.to });
  if (params.queueIds) search.set('queueIds', JSON.stringify(params.queueIds));
  return search.toString();
}

/** GET /api/reports/attendants: every attendant (admins) or the caller's own line. */
export function useAttendantsReport(params: ReportParams) {
  return useQuery({
    queryKey: [...REPORTS_KEY, 'attendants', params],
    queryFn: async () => (await api.get<AttendantsReport>(`/reports/attendants?${query(params)}`)).data,
    placeholderData: (previous) => previous,
  });
}

/** GET /api/reports/queues: admins only (an attendant's page does not ask). */
export function useQueuesReport(params: ReportParams, enabled: boolean) {
  return useQuery({
    queryKey: [...REPORTS_KEY, 'queues', params],
    enabled,
    queryFn: async () => (await api.get<QueuesReport>(`/reports/queues?${query(params)}`)).data,
    placeholderData: (previous) => previous,
  });
}

/** GET /api/reports/daily: one row per day of the period. */
export function useDailyReport(params: ReportParams) {
  return useQuery({
    queryKey: [...REPORTS_KEY, 'daily', params],
    queryFn: async () => (await api.get<DailyReport>(`/reports/daily?${query(params)}`)).data,
    placeholderData: (previous) => previous,
  });
}
