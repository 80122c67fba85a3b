import type { WebhookDeliveryDto, WebhookDeliveryListResponse, WebhookDto, WebhookInput, WebhookListResponse } from '@wadesk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../services/api';

/** The key of the webhook list; a webhook's delivery log lives under `[...WEBHOOKS_KEY, id, 'deliveries']`. */
export const WEBHOOKS_KEY = ['webhooks'] as const;

/** Every outgoing webhook (admins), with its secret and its waiting and failed deliveries. */
export function useWebhookList() {
  return useQuery({
    queryKey: WEBHOOKS_KEY,
    queryFn: async () => (await api.get<WebhookListResponse>('/webhooks')).data.webhooks,
  });
}

/** Saving, deleting and testing webhooks; the list (and the logs) are read again after each. */
export function useWebhookActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  return {
    save: async (id: number | undefined, input: WebhookInput): Promise<WebhookDto> => {
      const saved = id === undefined ? (await api.post<WebhookDto>('/webhooks', input)).data : (await api.put<WebhookDto>(`/webhooks/${id}`, input)).data;
      await refresh();
      return saved;
    },
    remove: async (webhook: { id: number }): Promise<void> => {
      await api.delete(`/webhooks/${webhook.id}`);
      await refresh();
    },
    test: async (id: number): Promise<WebhookDeliveryDto> => {
      const delivery = (await api.post<WebhookDeliveryDto>(`/webhooks/${id}/test`)).data;
      await refresh();
      return delivery;
    },
    redeliver: async (id: number, deliveryId: number): Promise<WebhookDeliveryDto> => {
      const delivery = (await api.post<WebhookDeliveryDto>(`/webhooks/${id}/deliveries/${deliveryId}/redeliver`)).data;
      await refresh();
      return delivery;
    },
  };
}

/** A webhook's delivery log, newest first, 20 a page; read again every 5 s while open (retries move on their own). */
export function useWebhookDeliveries(id: number) {
  return useInfiniteQuery({
    queryKey: [...WEBHOOKS_KEY, id, 'deliveries'],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => (await api.get<WebhookDeliveryListResponse>(`/webhooks/${id}/deliveries`, { params: { pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    select: (data) => data.pages.flatMap((p) => p.deliveries),
    refetchInterval: 5000,
  });
}

/** A new secret made in the browser: 32 random bytes as 64 hex characters (as the server makes them). */
export function newWebhookSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
