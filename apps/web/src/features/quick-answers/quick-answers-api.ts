import type { QuickAnswerDto, QuickAnswerInput, QuickAnswerListResponse } from '@wadesk/contracts';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

export const QUICK_ANSWERS_KEY = ['quickAnswers'] as const;

/** Search text as the server takes it: trimmed and lowercased. */
export function normalizeQuickAnswerSearch(text: string): string {
  return text.trim().toLowerCase();
}

export function useQuickAnswersList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: [...QUICK_ANSWERS_KEY, 'list', searchParam],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (
        await api.get<QuickAnswerListResponse>('/quickAnswers', {
          params: { searchParam, pageNumber: pageParam },
        })
      ).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export async function createQuickAnswer(input: QuickAnswerInput): Promise<QuickAnswerDto> {
  return (await api.post<QuickAnswerDto>('/quickAnswers', input)).data;
}

export async function updateQuickAnswer(id: number, input: QuickAnswerInput): Promise<QuickAnswerDto> {
  return (await api.put<QuickAnswerDto>(`/quickAnswers/${id}`, input)).data;
}

export async function deleteQuickAnswer(id: number): Promise<void> {
  await api.delete(`/quickAnswers/${id}`);
}

type QuickAnswersPages = InfiniteData<QuickAnswerListResponse, number>;
export type QuickAnswerChange =
  | { action: 'create' | 'update'; quickAnswer: QuickAnswerDto }
  | { action: 'delete'; quickAnswerId: number };

/**
 * Applies a created, updated or deleted quick answer to every cached list. A new answer makes a list with a
 * search, or one whose loaded pages it sorts after, refetch instead.
 */
export function useApplyQuickAnswerChange() {
  const queryClient = useQueryClient();
  return (change: QuickAnswerChange) => {
    const lists = queryClient.getQueriesData<QuickAnswersPages>({ queryKey: [...QUICK_ANSWERS_KEY, 'list'] });
    for (const [key, data] of lists) {
      if (!data?.pages) continue;
      if (change.action === 'delete') {
        if (!data.pages.some((p) => p.quickAnswers.some((q) => q.id === change.quickAnswerId))) continue;
        queryClient.setQueryData<QuickAnswersPages>(key, {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            count: Math.max(0, p.count - 1),
            quickAnswers: p.quickAnswers.filter((q) => q.id !== change.quickAnswerId),
          })),
        });
        continue;
      }
      const { quickAnswer } = change;
      const search = typeof key[2] === 'string' ? key[2] : '';
      if (data.pages.some((p) => p.quickAnswers.some((q) => q.id === quickAnswer.id))) {
        queryClient.setQueryData<QuickAnswersPages>(key, {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            quickAnswers: p.quickAnswers.map((q) => (q.id === quickAnswer.id ? quickAnswer : q)),
          })),
        });
        continue;
      }
      const pages = search ? null : insertByShortcut(data.pages, quickAnswer);
      if (pages) queryClient.setQueryData<QuickAnswersPages>(key, { ...data, pages });
      else void queryClient.invalidateQueries({ queryKey: key, exact: true });
    }
    // The chat input's '/' lookups keep their own cache.
    void queryClient.invalidateQueries({ queryKey: [...QUICK_ANSWERS_KEY, 'lookup'] });
  };
}

/** The list is ordered by shortcut (as the server does); null when the answer belongs to a page not loaded. */
function insertByShortcut(pages: QuickAnswerListResponse[], answer: QuickAnswerDto): QuickAnswerListResponse[] | null {
  const shortcut = answer.shortcut.toLowerCase();
  for (let i = 0; i < pages.length; i += 1) {
    const list = pages[i].quickAnswers;
    const at = list.findIndex((q) => q.shortcut.toLowerCase() > shortcut);
    const lastLoaded = i === pages.length - 1 && !pages[i].hasMore;
    if (at < 0 && !lastLoaded) continue;
    const quickAnswers = at < 0 ? [...list, answer] : [...list.slice(0, at), answer, ...list.slice(at)];
    return pages.map((p, j) => ({ ...p, count: p.count + 1, ...(j === i ? { quickAnswers } : {}) }));
  }
  return null;
}

/** Live updates of the quick answers table (socket `quickAnswer`). */
export function useQuickAnswersLiveUpdates(): void {
  const apply = useApplyQuickAnswerChange();
  useSocketEvent('quickAnswer', (e) => apply(e));
}
