import type { QueueDto, WhatsappDto, WhatsappInput, WhatsappUpdateInput } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useWhatsapps, WHATSAPPS_QUERY_KEY } from '../layout/use-connections-attention';

/** The connections list shares its cache with the drawer badge (one query, one set of socket listeners). */
export { useWhatsapps, WHATSAPPS_QUERY_KEY };

export function useWhatsapp(id: number | undefined) {
  return useQuery({
    queryKey: [...WHATSAPPS_QUERY_KEY, 'one', id],
    enabled: id !== undefined,
    staleTime: 0,
    queryFn: async () => (await api.get<WhatsappDto>(`/whatsapp/${id}`)).data,
  });
}

export function useQueueOptions() {
  return useQuery({
    queryKey: ['queues'],
    queryFn: async () => (await api.get<QueueDto[]>('/queue')).data,
  });
}

export async function createWhatsapp(input: WhatsappInput): Promise<WhatsappDto> {
  return (await api.post<WhatsappDto>('/whatsapp', input)).data;
}

export async function updateWhatsapp(id: number, input: WhatsappUpdateInput): Promise<WhatsappDto> {
  return (await api.put<WhatsappDto>(`/whatsapp/${id}`, input)).data;
}

export async function deleteWhatsapp(id: number): Promise<void> {
  await api.delete(`/whatsapp/${id}`);
}

/** §4 session actions. */
export const sessionActions = {
  retry: async (id: number) => void (await api.post(`/whatsappsession/${id}`)),
  newQr: async (id: number) => void (await api.put(`/whatsappsession/${id}`)),
  disconnect: async (id: number) => void (await api.delete(`/whatsappsession/${id}`)),
};

/** Puts a saved or deleted connection into the shared list at once (the socket event may come later). */
export function useApplyWhatsappChange() {
  const queryClient = useQueryClient();
  return (change: { action: 'update'; whatsapp: WhatsappDto } | { action: 'delete'; whatsappId: number }) => {
    queryClient.setQueryData<WhatsappDto[]>(WHATSAPPS_QUERY_KEY, (list) => {
      if (!list) return list;
      if (change.action === 'delete') return list.filter((w) => w.id !== change.whatsappId);
      const saved = change.whatsapp;
      // Only one default connection: saving a new default unsets the others.
      const others = saved.isDefault ? list.map((w) => (w.isDefault && w.id !== saved.id ? { ...w, isDefault: false } : w)) : list;
      return others.some((w) => w.id === saved.id) ? others.map((w) => (w.id === saved.id ? saved : w)) : [...others, saved];
    });
    if (change.action === 'update') queryClient.setQueryData([...WHATSAPPS_QUERY_KEY, 'one', change.whatsapp.id], change.whatsapp);
  };
}

