import type { InfiniteData, QueryClient } from '@tanstack/react-query';

/** One page of a searched list, as the list routes answer it: `{ contacts: [...], count, hasMore }` and so on. */
export type ListPage<K extends string, T> = { [P in K]: T[] } & { count: number; hasMore: boolean };

/** A saved or deleted item, whatever its event calls it (`{ action, contact }`, `{ action: 'delete', contactId }`). */
export type ItemChange<T> = { action: 'create' | 'update'; item: T } | { action: 'delete'; id: number };

/** A plain cached list after a change: a deleted item leaves it, a saved one replaces its old self or is added. */
export function changedList<T extends { id: number }>(list: T[], change: ItemChange<T>): T[] {
  if (change.action === 'delete') return list.filter((x) => x.id !== change.id);
  const { item } = change;
  return list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];
}

/**
 * Where a new item goes in one cached list: its pages with the item in place, 'refetch' to fetch that list
 * again, or null to leave it (the item shows when its page is loaded).
 */
export type PlaceNewItem<K extends string, T> = (
  pages: ListPage<K, T>[],
  item: T,
  search: string,
) => ListPage<K, T>[] | 'refetch' | null;

function withItems<K extends string, T>(page: ListPage<K, T>, field: K, items: T[], count = page.count): ListPage<K, T> {
  return { ...page, [field]: items, count } as ListPage<K, T>;
}

/**
 * Applies a saved or deleted item to every cached searched list under `key` (`[...key, 'list', search]`, whose
 * pages hold the items in `field`) and to its one-item cache (`[...key, 'one', id]`): a deleted item leaves its list, a known one is replaced where it stands, and
 * `placeNew` decides where a new one goes.
 */
export function applyToSearchedPages<K extends string, T extends { id: number }>(
  queryClient: QueryClient,
  key: readonly string[],
  field: K,
  change: ItemChange<T>,
  placeNew: PlaceNewItem<K, T>,
): void {
  type Pages = InfiniteData<ListPage<K, T>, number>;
  for (const [listKey, data] of queryClient.getQueriesData<Pages>({ queryKey: [...key, 'list'] })) {
    if (!data?.pages) continue;
    const holds = (id: number) => data.pages.some((p) => p[field].some((x) => x.id === id));
    const setPages = (pages: ListPage<K, T>[]) => queryClient.setQueryData<Pages>(listKey, { ...data, pages });
    if (change.action === 'delete') {
      if (holds(change.id)) {
        setPages(data.pages.map((p) => withItems(p, field, p[field].filter((x) => x.id !== change.id), Math.max(0, p.count - 1))));
      }
      continue;
    }
    const { item } = change;
    if (holds(item.id)) {
      setPages(data.pages.map((p) => withItems(p, field, p[field].map((x) => (x.id === item.id ? item : x)))));
      continue;
    }
    const placed = placeNew(data.pages, item, typeof listKey[2] === 'string' ? listKey[2] : '');
    if (placed === 'refetch') void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    else if (placed) setPages(placed);
  }
  if (change.action === 'delete') queryClient.removeQueries({ queryKey: [...key, 'one', change.id] });
  else queryClient.setQueryData([...key, 'one', change.item.id], change.item);
}

/**
 * A new item in a list sorted by `sortKey` (as the server sorts it): in its place among the loaded pages, or null
 * when it sorts after them and more pages remain (it comes with its page). Every page counts one more.
 */
export function insertSorted<K extends string, T>(
  pages: ListPage<K, T>[],
  field: K,
  item: T,
  sortKey: (x: T) => string,
): ListPage<K, T>[] | null {
  const key = sortKey(item);
  for (let i = 0; i < pages.length; i += 1) {
    const list = pages[i][field];
    const at = list.findIndex((x) => sortKey(x) > key);
    const lastLoaded = i === pages.length - 1 && !pages[i].hasMore;
    if (at < 0 && !lastLoaded) continue;
    const items = at < 0 ? [...list, item] : [...list.slice(0, at), item, ...list.slice(at)];
    return pages.map((p, j) => withItems(p, field, j === i ? items : p[field], p.count + 1));
  }
  return null;
}
