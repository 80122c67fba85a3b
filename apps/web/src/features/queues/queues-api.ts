import type { QueueDto, QueueInput, QueueUpdateInput } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { changedList, type ItemChange } from '../../hooks/list-cache';
import { itemActions, restResource } from '../../hooks/rest-resource';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

/** The key of the queue list, shared by the queues page and the queue pickers, so all stay in step. */
export const QUEUES_KEY = ['queues'] as const;

const queues = restResource<QueueDto, QueueInput, QueueUpdateInput>('/queue', QUEUES_KEY);

/** Every queue, by name (the queues page, and the queue pickers of the user and connection forms). */
export function useQueueList(enabled = true) {
  return useQuery({
    queryKey: QUEUES_KEY,
    enabled,
    queryFn: async () => (await api.get<QueueDto[]>(queues.path)).data,
  });
}

const byName = (a: QueueDto, b: QueueDto) => a.name.localeCompare(b.name) || a.id - b.id;

/** Applies a created, updated or deleted queue to the cached list (ordered by name, as the server does). */
export function useApplyQueueChange() {
  const queryClient = useQueryClient();
  return (change: ItemChange<QueueDto>) => {
    queryClient.setQueryData<QueueDto[]>(QUEUES_KEY, (list) => list && changedList(list, change).sort(byName));
  };
}

/** Saving and deleting queues, shown in the list at once. */
export function useQueueActions() {
  return itemActions(queues, useApplyQueueChange());
}

/** Live updates of the queue list (socket `queue`). */
export function useQueuesLiveUpdates(): void {
  const apply = useApplyQueueChange();
  useSocketEvent('queue', (e) => apply(e.action === 'delete' ? { action: 'delete', id: e.queueId } : { action: e.action, item: e.queue }));
}
