import type { LabelDto, LabelInput, LabelRefDto, LabelUpdateInput } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { changedList, type ItemChange } from '../../hooks/list-cache';
import { itemActions, restResource } from '../../hooks/rest-resource';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

/** The key of the label list, shared by the labels page, the pickers and the ticket filter. */
export const LABELS_KEY = ['labels'] as const;

const labels = restResource<LabelDto, LabelInput, LabelUpdateInput>('/labels', LABELS_KEY);

/** Every label, by name (everyone signed in may read them). */
export function useLabelList(enabled = true) {
  return useQuery({
    queryKey: LABELS_KEY,
    enabled,
    queryFn: async () => (await api.get<LabelDto[]>(labels.path)).data,
    staleTime: 30_000,
  });
}

const byName = (a: LabelRefDto, b: LabelRefDto) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;

/** Labels sorted as the server sorts them (by name, ignoring case). */
export const sortLabels = <T extends LabelRefDto>(list: readonly T[]): T[] => [...list].sort(byName);

/** Applies a created, updated or deleted label to the cached list. */
export function useApplyLabelChange() {
  const queryClient = useQueryClient();
  return (change: ItemChange<LabelDto>) => {
    queryClient.setQueryData<LabelDto[]>(LABELS_KEY, (list) => list && sortLabels(changedList(list, change)));
  };
}

/** Saving and deleting labels, shown in the list at once. */
export function useLabelActions() {
  return itemActions(labels, useApplyLabelChange());
}

/**
 * Live labels (socket `label`): the list, and the tickets and contacts that carry a renamed, recoloured or deleted
 * label are read again (mounted once, with the ticket lists' live updates).
 */
export function useLabelsLiveUpdates(): void {
  const queryClient = useQueryClient();
  const apply = useApplyLabelChange();
  useSocketEvent('label', (e) => {
    apply(e.action === 'delete' ? { action: 'delete', id: e.labelId } : { action: e.action, item: e.label });
    if (e.action === 'create') return;
    void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    void queryClient.invalidateQueries({ queryKey: ['contacts'] });
  });
}
