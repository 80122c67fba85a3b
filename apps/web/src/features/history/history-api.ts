import type {
  DeviceHistorySummaryDto,
  HistoryImportDto,
  HistoryImportInput,
  HistoryImportListResponse,
  HistoryImportStartedResponse,
} from '@wadesk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../services/api';
import { isNotOlder, useLiveJob } from '../../services/live-record';
import { useSocketEvent } from '../../services/socket';

export const HISTORY_KEY = ['history'] as const;

/** What the phone's history holds for a connection (kept by the server since the phone sent it). */
export function useDeviceHistory(whatsappId: number | null) {
  return useQuery({
    queryKey: [...HISTORY_KEY, 'device', whatsappId],
    enabled: whatsappId !== null,
    queryFn: async () => (await api.get<DeviceHistorySummaryDto>('/history/device', { params: { whatsappId } })).data,
  });
}

/** Past and present imports, newest first, 20 a page. */
export function useHistoryImports() {
  return useInfiniteQuery({
    queryKey: [...HISTORY_KEY, 'imports'],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => (await api.get<HistoryImportListResponse>('/history/imports', { params: { pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** One import, kept current by the socket (and fetched again every few seconds while it runs). */
export function useHistoryImport(id: number | null) {
  return useLiveJob<HistoryImportDto>([...HISTORY_KEY, 'import', id], id === null ? null : `/history/imports/${id}`);
}

export async function startHistoryImport(input: HistoryImportInput): Promise<HistoryImportStartedResponse> {
  return (await api.post<HistoryImportStartedResponse>('/history/imports', input)).data;
}

export async function cancelHistoryImport(id: number): Promise<HistoryImportDto> {
  return (await api.post<HistoryImportDto>(`/history/imports/${id}/cancel`)).data;
}


/** Puts an import into the caches (its own, and the list), unless a later copy is there. */
export function useApplyHistoryImport() {
  const queryClient = useQueryClient();
  return (item: HistoryImportDto) => {
    const current = queryClient.getQueryData<HistoryImportDto>([...HISTORY_KEY, 'import', item.id]);
    if (!isNotOlder(item, current)) return;
    queryClient.setQueryData([...HISTORY_KEY, 'import', item.id], item);
    queryClient.setQueryData<InfiniteData<HistoryImportListResponse>>([...HISTORY_KEY, 'imports'], (data) => {
      if (!data) return data;
      const found = data.pages.some((p) => p.historyImports.some((i) => i.id === item.id));
      const pages = data.pages.map((p, index) => ({
        ...p,
        historyImports: found ? p.historyImports.map((i) => (i.id === item.id ? item : i)) : index === 0 ? [item, ...p.historyImports] : p.historyImports,
      }));
      return { ...data, pages };
    });
  };
}

/** Keeps the imports current from the `historyImport` socket event (admins receive it). */
export function useHistoryImportsLiveUpdates(onUpdate?: (item: HistoryImportDto) => void): void {
  const apply = useApplyHistoryImport();
  useSocketEvent('historyImport', ({ historyImport }) => {
    apply(historyImport);
    onUpdate?.(historyImport);
  });
}
