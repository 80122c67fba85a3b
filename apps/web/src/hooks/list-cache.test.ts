import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyToSearchedPages, changedList, insertSorted, type ListPage } from './list-cache';
import { normalizeSearch } from './use-list-search';

interface Item {
  id: number;
  name: string;
}
type Page = ListPage<'items', Item>;

const item = (id: number, name: string): Item => ({ id, name });
const page = (items: Item[], hasMore: boolean): Page => ({ items, count: 9, hasMore });
const byName = (x: Item) => x.name;

function cacheWith(search: string, pages: Page[]) {
  const queryClient = new QueryClient();
  queryClient.setQueryData<InfiniteData<Page, number>>(['items', 'list', search], { pages, pageParams: pages.map((_, i) => i + 1) });
  const read = () => queryClient.getQueryData<InfiniteData<Page, number>>(['items', 'list', search])?.pages;
  return { queryClient, read };
}

describe('insertSorted', () => {
  it('puts a new item in its place by name and counts one more on every page', () => {
    const pages = insertSorted([page([item(1, 'ana'), item(2, 'carla')], false)], 'items', item(3, 'bruno'), byName);
    expect(pages?.[0].items.map((x) => x.name)).toEqual(['ana', 'bruno', 'carla']);
    expect(pages?.[0].count).toBe(10);
  });

  it('adds an item that sorts last at the end of the last page when no page remains', () => {
    const pages = insertSorted([page([item(1, 'ana')], false)], 'items', item(2, 'zoe'), byName);
    expect(pages?.[0].items.map((x) => x.name)).toEqual(['ana', 'zoe']);
  });

  it('leaves an item that sorts after the loaded pages to its own page', () => {
    expect(insertSorted([page([item(1, 'ana')], true)], 'items', item(2, 'zoe'), byName)).toBeNull();
  });
});

describe('applyToSearchedPages', () => {
  it('takes a deleted item out of its list and its one-item cache', () => {
    const { queryClient, read } = cacheWith('', [page([item(1, 'ana'), item(2, 'bruno')], false)]);
    queryClient.setQueryData(['items', 'one', 2], item(2, 'bruno'));
    applyToSearchedPages(queryClient, ['items'], 'items', { action: 'delete', id: 2 }, () => null);
    expect(read()?.[0].items.map((x) => x.id)).toEqual([1]);
    expect(read()?.[0].count).toBe(8);
    expect(queryClient.getQueryData(['items', 'one', 2])).toBeUndefined();
  });

  it('replaces a known item where it stands', () => {
    const { queryClient, read } = cacheWith('', [page([item(1, 'ana'), item(2, 'bruno')], false)]);
    applyToSearchedPages(queryClient, ['items'], 'items', { action: 'update', item: item(1, 'zita') }, () => 'refetch');
    expect(read()?.[0].items.map((x) => x.name)).toEqual(['zita', 'bruno']);
    expect(queryClient.getQueryData(['items', 'one', 1])).toEqual(item(1, 'zita'));
  });

  it('places a new item where placeNew says, with the list search', () => {
    const { queryClient, read } = cacheWith('an', [page([item(1, 'ana')], false)]);
    const searches: string[] = [];
    applyToSearchedPages(queryClient, ['items'], 'items', { action: 'create', item: item(2, 'ane') }, (pages, x, search) => {
      searches.push(search);
      return insertSorted(pages, 'items', x, byName);
    });
    expect(searches).toEqual(['an']);
    expect(read()?.[0].items.map((x) => x.name)).toEqual(['ana', 'ane']);
  });
});

describe('changedList', () => {
  it('replaces, adds and removes items of a plain list', () => {
    const list = [item(1, 'ana'), item(2, 'bruno')];
    expect(changedList(list, { action: 'update', item: item(2, 'beto') })).toEqual([item(1, 'ana'), item(2, 'beto')]);
    expect(changedList(list, { action: 'create', item: item(3, 'carla') })).toHaveLength(3);
    expect(changedList(list, { action: 'delete', id: 1 })).toEqual([item(2, 'bruno')]);
  });
});

describe('normalizeSearch', () => {
  it('trims and lowercases, and asks for nothing below the minimum length (§5)', () => {
    expect(normalizeSearch('  Ana ')).toBe('ana');
    expect(normalizeSearch(' An ', 3)).toBe('');
    expect(normalizeSearch('Ana', 3)).toBe('ana');
  });
});
