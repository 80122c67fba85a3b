import type { QuickAnswerDto, QuickAnswerInput } from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { applyToSearchedPages, insertSorted, type ItemChange } from '../../hooks/list-cache';
import { itemActions, restResource, useSearchedPages } from '../../hooks/rest-resource';
import { useSocketEvent } from '../../services/socket';

export const QUICK_ANSWERS_KEY = ['quickAnswers'] as const;

const quickAnswers = restResource<QuickAnswerDto, QuickAnswerInput>('/quickAnswers', QUICK_ANSWERS_KEY);

export function useQuickAnswersList(searchParam: string) {
  return useSearchedPages(quickAnswers, 'quickAnswers', searchParam);
}

/**
 * Applies a created, updated or deleted quick answer to every cached list (ordered by shortcut, as the server
 * does). A new answer makes a list with a search, or one whose loaded pages it sorts after, refetch instead.
 */
export function useApplyQuickAnswerChange() {
  const queryClient = useQueryClient();
  return (change: ItemChange<QuickAnswerDto>) => {
    applyToSearchedPages(queryClient, QUICK_ANSWERS_KEY, 'quickAnswers', change, (pages, answer, search) =>
      (search ? null : insertSorted(pages, 'quickAnswers', answer, (q) => q.shortcut.toLowerCase())) ?? 'refetch',
    );
    // The chat input's '/' lookups keep their own cache.
    void queryClient.invalidateQueries({ queryKey: [...QUICK_ANSWERS_KEY, 'lookup'] });
  };
}

/** Saving and deleting quick answers, shown in the lists at once. */
export function useQuickAnswerActions() {
  return itemActions(quickAnswers, useApplyQuickAnswerChange());
}

/** Live updates of the quick answers table (socket `quickAnswer`). */
export function useQuickAnswersLiveUpdates(): void {
  const apply = useApplyQuickAnswerChange();
  useSocketEvent('quickAnswer', (e) =>
    apply(e.action === 'delete' ? { action: 'delete', id: e.quickAnswerId } : { action: e.action, item: e.quickAnswer }),
  );
}
