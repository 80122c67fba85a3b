import type {
  ScheduleDto,
  ScheduleInput,
  ScheduleListResponse,
  ScheduleStatus,
  ScheduleUpdateInput,
  SendSchedulesResponse,
} from '@wadesk/contracts';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

export const SCHEDULES_KEY = ['schedules'] as const;

export interface ScheduleFilter {
  status?: ScheduleStatus;
  /** YYYY-MM-DD, a day of the server's time zone. */
  date?: string;
  contactId?: number;
}

/** Scheduled messages (an attendant's own, every one for an admin), 20 a page. */
export function useSchedules(filter: ScheduleFilter, enabled = true) {
  return useInfiniteQuery({
    queryKey: [...SCHEDULES_KEY, 'list', filter],
    enabled,
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<ScheduleListResponse>('/schedules', { params: { ...filter, pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export async function createSchedule(input: ScheduleInput): Promise<ScheduleDto> {
  return (await api.post<ScheduleDto>('/schedules', input)).data;
}

export async function updateSchedule(id: number, input: ScheduleUpdateInput): Promise<ScheduleDto> {
  return (await api.put<ScheduleDto>(`/schedules/${id}`, input)).data;
}

export async function cancelSchedule(id: number): Promise<ScheduleDto> {
  return (await api.delete<ScheduleDto>(`/schedules/${id}`)).data;
}

/** DISPARAR: the send API's call (`POST /api/sendAgendamento`), with the admin's session in place of the token. */
export async function sendScheduledDay(dataEnvio: string, ticketwhatsappId: number): Promise<SendSchedulesResponse> {
  return (await api.post<SendSchedulesResponse>('/sendAgendamento', { dataEnvio, ticketwhatsappId })).data;
}

/** The active instance (the default connection), from the send API (`GET /api/whatsappzdg/active`). */
export async function fetchActiveInstance(): Promise<{ id: number; name: string; status: string }> {
  return (await api.get<{ id: number; name: string; status: string }>('/whatsappzdg/active')).data;
}

/** Keeps every list of schedules current from the `schedule` socket event. */
export function useSchedulesLiveUpdates(): void {
  const queryClient = useQueryClient();
  useSocketEvent('schedule', () => {
    void queryClient.invalidateQueries({ queryKey: [...SCHEDULES_KEY, 'list'] });
  });
}
