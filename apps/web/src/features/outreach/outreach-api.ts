import type { OutreachChannel, OutreachDetailResponse, OutreachListResponse, OutreachStartInput, OutreachStartedResponse } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

export const OUTREACH_KEY = ['outreach'] as const;

export function useOutreachList(channel: OutreachChannel) {
  return useQuery({
    queryKey: [...OUTREACH_KEY, 'list', channel],
    queryFn: async () => (await api.get<OutreachListResponse>('/outreach', { params: { channel } })).data,
  });
}

/** A batch with its recipients; fetched again every second while it runs (and on each socket update). */
export function useOutreachDetail(id: number | null) {
  return useQuery({
    queryKey: [...OUTREACH_KEY, 'detail', id],
    enabled: id !== null,
    queryFn: async () => (await api.get<OutreachDetailResponse>(`/outreach/${id}`)).data,
    refetchInterval: (query) => {
      const status = query.state.data?.batch.status;
      return status === 'queued' || status === 'running' ? 1000 : false;
    },
  });
}

export async function startOutreach(input: OutreachStartInput): Promise<OutreachStartedResponse> {
  return (await api.post<OutreachStartedResponse>('/outreach', input)).data;
}

export async function cancelOutreach(id: number): Promise<void> {
  await api.post(`/outreach/${id}/cancel`);
}

/** The `outreach` socket event refreshes the batch and the list. */
export function useOutreachLiveUpdates(): void {
  const queryClient = useQueryClient();
  useSocketEvent('outreach', ({ batch }) => {
    void queryClient.invalidateQueries({ queryKey: [...OUTREACH_KEY, 'detail', batch.id] });
    void queryClient.invalidateQueries({ queryKey: [...OUTREACH_KEY, 'list', batch.channel] });
  });
}
