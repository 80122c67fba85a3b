import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../services/api';
import type { ItemChange, ListPage } from './list-cache';

/**
 * One REST resource of the API (`/contacts`, `/users`, ...): its create, update and delete calls, and the cache
 * key its queries live under (`[...key, 'list', search]` for lists, `[...key, 'one', id]` for one item).
 */
export interface RestResource<T, CreateInput, UpdateInput> {
  path: string;
  key: readonly string[];
  create: (input: CreateInput) => Promise<T>;
  update: (id: number, input: UpdateInput) => Promise<T>;
  remove: (id: number) => Promise<void>;
}

export function restResource<T, CreateInput, UpdateInput = CreateInput>(
  path: string,
  key: readonly string[],
): RestResource<T, CreateInput, UpdateInput> {
  return {
    path,
    key,
    create: async (input) => (await api.post<T>(path, input)).data,
    update: async (id, input) => (await api.put<T>(`${path}/${id}`, input)).data,
    remove: async (id) => {
      await api.delete(`${path}/${id}`);
    },
  };
}

/** A resource whatever its inputs: for reading. */
export type AnyResource<T> = RestResource<T, never, never>;

/** One item, fetched afresh each time a form opens it; nothing while `id` is undefined. */
export function useResourceItem<T>(resource: AnyResource<T>, id: number | undefined) {
  return useQuery({
    queryKey: [...resource.key, 'one', id],
    enabled: id !== undefined,
    queryFn: async () => (await api.get<T>(`${resource.path}/${id}`)).data,
    staleTime: 0,
  });
}

/**
 * A searched list, page by page (§9: `searchParam` and `pageNumber`, from 1); `data` is the loaded items, in
 * order (each page holds them in its `field`).
 */
export function useSearchedPages<K extends string, T>(resource: AnyResource<T>, field: K, searchParam: string) {
  return useInfiniteQuery({
    queryKey: [...resource.key, 'list', searchParam],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<ListPage<K, T>>(resource.path, { params: { searchParam, pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    select: (data) => data.pages.flatMap((p) => p[field]),
  });
}

/** The calls that change items, each followed by `apply` to show the change in the caches at once. */
export interface ItemActions<T, CreateInput, UpdateInput> {
  create: (input: CreateInput) => Promise<T>;
  update: (id: number, input: UpdateInput) => Promise<T>;
  /** Adds an item (no id) or changes one, where both take the same input. */
  save: (id: number | undefined, input: CreateInput & UpdateInput) => Promise<T>;
  remove: (item: { id: number }) => Promise<void>;
}

export function itemActions<T extends { id: number }, CreateInput, UpdateInput>(
  resource: RestResource<T, CreateInput, UpdateInput>,
  apply: (change: ItemChange<T>) => void,
): ItemActions<T, CreateInput, UpdateInput> {
  const create = async (input: CreateInput) => {
    const item = await resource.create(input);
    apply({ action: 'create', item });
    return item;
  };
  const update = async (id: number, input: UpdateInput) => {
    const item = await resource.update(id, input);
    apply({ action: 'update', item });
    return item;
  };
  return {
    create,
    update,
    save: (id, input) => (id === undefined ? create(input) : update(id, input)),
    remove: async ({ id }) => {
      await resource.remove(id);
      apply({ action: 'delete', id });
    },
  };
}
