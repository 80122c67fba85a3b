import type {
  GroupActionDto,
  GroupActionInput,
  GroupActionItemListResponse,
  GroupActionListResponse,
  GroupActionStartedResponse,
  GroupDto,
} from '@wadesk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../services/api';
import { isNotOlder, useLiveJob } from '../../services/live-record';
import { useSocketEvent } from '../../services/socket';

export const GROUPS_KEY = ['groups'] as const;

/** The groups of a connection as they are now on the phone. */
export function useGroups(whatsappId: number | null) {
  return useQuery({
    queryKey: [...GROUPS_KEY, 'list', whatsappId],
    enabled: whatsappId !== null,
    retry: false,
    queryFn: async () => (await api.get<GroupDto[]>('/groups', { params: { whatsappId } })).data,
  });
}

/** Past and present group actions, newest first, 20 a page. */
export function useGroupActions() {
  return useInfiniteQuery({
    queryKey: [...GROUPS_KEY, 'actions'],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => (await api.get<GroupActionListResponse>('/groups/actions', { params: { pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** One group action, kept current by the socket (and fetched again every few seconds while it runs). */
export function useGroupAction(id: number | null) {
  return useLiveJob<GroupActionDto>([...GROUPS_KEY, 'action', id], id === null ? null : `/groups/actions/${id}`);
}

export function useGroupActionItems(id: number | null) {
  return useInfiniteQuery({
    queryKey: [...GROUPS_KEY, 'items', id],
    enabled: id !== null,
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<GroupActionItemListResponse>(`/groups/actions/${id}/items`, { params: { pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export async function startGroupAction(input: GroupActionInput): Promise<GroupActionStartedResponse> {
  return (await api.post<GroupActionStartedResponse>('/groups/actions', input)).data;
}

export async function cancelGroupAction(id: number): Promise<GroupActionDto> {
  return (await api.post<GroupActionDto>(`/groups/actions/${id}/cancel`)).data;
}

/** Puts an action into the caches (its own, and the list), unless a later copy is there. */
export function useApplyGroupAction() {
  const queryClient = useQueryClient();
  return (action: GroupActionDto) => {
    const current = queryClient.getQueryData<GroupActionDto>([...GROUPS_KEY, 'action', action.id]);
    if (!isNotOlder(action, current)) return;
    queryClient.setQueryData([...GROUPS_KEY, 'action', action.id], action);
    queryClient.setQueryData<InfiniteData<GroupActionListResponse>>([...GROUPS_KEY, 'actions'], (data) => {
      if (!data) return data;
      const found = data.pages.some((p) => p.groupActions.some((a) => a.id === action.id));
      const pages = data.pages.map((p, i) => ({
        ...p,
        groupActions: found ? p.groupActions.map((a) => (a.id === action.id ? action : a)) : i === 0 ? [action, ...p.groupActions] : p.groupActions,
      }));
      return { ...data, pages };
    });
  };
}

/** Keeps the actions current from the `groupAction` socket event; their items and the groups are fetched again. */
export function useGroupActionsLiveUpdates(): void {
  const queryClient = useQueryClient();
  const apply = useApplyGroupAction();
  useSocketEvent('groupAction', ({ groupAction }) => {
    const before = queryClient.getQueryData<GroupActionDto>([...GROUPS_KEY, 'action', groupAction.id]);
    apply(groupAction);
    if (before && before.done === groupAction.done && before.total === groupAction.total && before.status === groupAction.status) return;
    void queryClient.invalidateQueries({ queryKey: [...GROUPS_KEY, 'items', groupAction.id] });
    if (groupAction.status === 'done') void queryClient.invalidateQueries({ queryKey: [...GROUPS_KEY, 'list', groupAction.whatsappId] });
  });
}
