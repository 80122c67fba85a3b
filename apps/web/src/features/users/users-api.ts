import type { UserCreateInput, UserDto, UserUpdateInput } from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { applyToSearchedPages, type ItemChange } from '../../hooks/list-cache';
import { itemActions, restResource, useResourceItem, useSearchedPages } from '../../hooks/rest-resource';
import { useSocketEvent } from '../../services/socket';
import { useAuth } from '../auth/auth-context';

export const USERS_KEY = ['users'] as const;

const users = restResource<UserDto, UserCreateInput, UserUpdateInput>('/users', USERS_KEY);

/** §5: user searches run from 3 characters on. */
export const USER_SEARCH_MIN_LENGTH = 3;

export function useUsersList(searchParam: string) {
  return useSearchedPages(users, 'users', searchParam);
}

export function useUser(id: number | undefined) {
  return useResourceItem(users, id);
}

/**
 * Applies a created, updated or deleted user to every cached list (a new user heads the lists its search
 * matches) and to the signed-in user when it is them.
 */
export function useApplyUserChange() {
  const queryClient = useQueryClient();
  const { user: me, setUser } = useAuth();
  return (change: ItemChange<UserDto>) => {
    applyToSearchedPages(queryClient, USERS_KEY, 'users', change, (pages, user, search) =>
      !search || user.name.toLowerCase().includes(search) || user.email.includes(search)
        ? pages.map((p, i) => (i === 0 ? { ...p, users: [user, ...p.users], count: p.count + 1 } : p))
        : null,
    );
    if (change.action !== 'delete' && me && change.item.id === me.id) setUser(change.item);
  };
}

/** Saving and deleting users, shown in the lists at once. */
export function useUserActions() {
  return itemActions(users, useApplyUserChange());
}

/** Live updates of the users table (socket `user`). */
export function useUsersLiveUpdates(): void {
  const apply = useApplyUserChange();
  useSocketEvent('user', (e) => apply(e.action === 'delete' ? { action: 'delete', id: e.userId } : { action: e.action, item: e.user }));
}
