import type { QueueDto, UserCreateInput, UserDto, UserListResponse, UserUpdateInput } from '@wadesk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';
import { useAuth } from '../auth/auth-context';

export const USERS_KEY = ['users'] as const;

/** §5: searches run from 3 characters on, lowercased. */
export const MIN_SEARCH_LENGTH = 3;

export function normalizeSearch(text: string): string {
  const s = text.trim().toLowerCase();
  return s.length >= MIN_SEARCH_LENGTH ? s : '';
}

export function useUsersList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: [...USERS_KEY, 'list', searchParam],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<UserListResponse>('/users', { params: { searchParam, pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useUser(id: number | undefined) {
  return useQuery({
    queryKey: [...USERS_KEY, 'one', id],
    enabled: id !== undefined,
    queryFn: async () => (await api.get<UserDto>(`/users/${id}`)).data,
    staleTime: 0,
  });
}

export function useQueues(enabled = true) {
  return useQuery({
    queryKey: ['queues'],
    enabled,
    queryFn: async () => (await api.get<QueueDto[]>('/queue')).data,
  });
}

export async function createUser(input: UserCreateInput): Promise<UserDto> {
  return (await api.post<UserDto>('/users', input)).data;
}

export async function updateUser(id: number, input: UserUpdateInput): Promise<UserDto> {
  return (await api.put<UserDto>(`/users/${id}`, input)).data;
}

export async function deleteUser(id: number): Promise<void> {
  await api.delete(`/users/${id}`);
}

type UsersPages = InfiniteData<UserListResponse, number>;

/** Applies a created, updated or deleted user to every cached list. */
export function useApplyUserChange() {
  const queryClient = useQueryClient();
  const { user: me, setUser } = useAuth();
  return (change: { action: 'create' | 'update'; user: UserDto } | { action: 'delete'; userId: number }) => {
    const lists = queryClient.getQueriesData<UsersPages>({ queryKey: [...USERS_KEY, 'list'] });
    for (const [key, data] of lists) {
      if (!data) continue;
      const search = typeof key[2] === 'string' ? key[2] : '';
      let next: UsersPages;
      if (change.action === 'delete') {
        next = {
          ...data,
          pages: data.pages.map((p) => ({ ...p, users: p.users.filter((u) => u.id !== change.userId) })),
        };
      } else {
        const exists = data.pages.some((p) => p.users.some((u) => u.id === change.user.id));
        if (exists) {
          next = {
            ...data,
            pages: data.pages.map((p) => ({
              ...p,
              users: p.users.map((u) => (u.id === change.user.id ? change.user : u)),
            })),
          };
        } else if (!search || change.user.name.toLowerCase().includes(search) || change.user.email.includes(search)) {
          next = {
            ...data,
            pages: data.pages.map((p, i) =>
              i === 0 ? { ...p, users: [change.user, ...p.users], count: p.count + 1 } : p,
            ),
          };
        } else {
          continue;
        }
      }
      queryClient.setQueryData(key, next);
    }
    if (change.action !== 'delete') {
      queryClient.setQueryData([...USERS_KEY, 'one', change.user.id], change.user);
      if (me && change.user.id === me.id) setUser(change.user);
    }
  };
}

/** Live updates of the users table (socket `user`). */
export function useUsersLiveUpdates(): void {
  const apply = useApplyUserChange();
  useSocketEvent('user', (e) => apply(e));
}
