import type { QueueDto, QueueInput, QueueUpdateInput } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

/** The same key the user modal reads its queue list from, so both stay in step. */
export const QUEUES_KEY = ['queues'] as const;

export function useQueueList() {
  return useQuery({
    queryKey: QUEUES_KEY,
    queryFn: async () => (await api.get<QueueDto[]>('/queue')).data,
  });
}

export async function createQueue(input: QueueInput): Promise<QueueDto> {
  return (await api.post<QueueDto>('/queue', input)).data;
}

export async function updateQueue(id: number, input: QueueUpdateInput): Promise<QueueDto> {
  return (await api.put<QueueDto>(`/queue/${id}`, input)).data;
}

export async function deleteQueue(id: number): Promise<void> {
  await api.delete(`/queue/${id}`);
}

export type QueueChange = { action: 'create' | 'update'; queue: QueueDto } | { action: 'delete'; queueId: number };

const byName = (a: QueueDto, b: QueueDto) => a.name.localeCompare(b.name) || a.id - b.id;

/** Applies a created, updated or deleted queue to the cached list (ordered by name, as the server does). */
export function useApplyQueueChange() {
  const queryClient = useQueryClient();
  return (change: QueueChange) => {
    queryClient.setQueryData<QueueDto[]>(QUEUES_KEY, (list) => {
      if (!list) return list;
      if (change.action === 'delete') return list.filter((q) => q.id !== change.queueId);
      return [...list.filter((q) => q.id !== change.queue.id), change.queue].sort(byName);
    });
  };
}

/** Live updates of the queue list (socket `queue`). */
export function useQueuesLiveUpdates(): void {
  const apply = useApplyQueueChange();
  useSocketEvent('queue', (e) => apply(e));
}
