import type { UIEvent } from 'react';

/** §9: load the next page within 100 px of the bottom. */
const SCROLL_THRESHOLD = 100;

export interface InfiniteScrollSource {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * Paging for an infinite query shown in a scrolling container: `loadMore` fetches the next page unless there is
 * none or one is on its way; `onScroll` (for the container) does so once the bottom is within the threshold.
 */
export function useInfiniteScroll({ hasNextPage, isFetchingNextPage, fetchNextPage }: InfiniteScrollSource) {
  const loadMore = () => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };

  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_THRESHOLD) loadMore();
  };

  return { loadMore, onScroll };
}
