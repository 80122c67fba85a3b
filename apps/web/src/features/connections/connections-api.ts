import type { WhatsappDto, WhatsappInput, WhatsappUpdateInput } from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { changedList, type ItemChange } from '../../hooks/list-cache';
import { itemActions, restResource, useResourceItem } from '../../hooks/rest-resource';
import { api } from '../../services/api';
import { useWhatsapps, WHATSAPPS_QUERY_KEY } from '../layout/use-connections-attention';

/** The connections list shares its cache with the drawer badge (one query, one set of socket listeners). */
export { useWhatsapps, WHATSAPPS_QUERY_KEY };

const whatsapps = restResource<WhatsappDto, WhatsappInput, WhatsappUpdateInput>('/whatsapp', WHATSAPPS_QUERY_KEY);

export function useWhatsapp(id: number | undefined) {
  return useResourceItem(whatsapps, id);
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
  return (change: ItemChange<WhatsappDto>) => {
    // Only one default connection: saving a new default unsets the others.
    const unsetDefault = (w: WhatsappDto) => (w.isDefault && change.action !== 'delete' && change.item.isDefault ? { ...w, isDefault: false } : w);
    queryClient.setQueryData<WhatsappDto[]>(WHATSAPPS_QUERY_KEY, (list) => list && changedList(list.map(unsetDefault), change));
    if (change.action !== 'delete') queryClient.setQueryData([...WHATSAPPS_QUERY_KEY, 'one', change.item.id], change.item);
  };
}

/** Saving and deleting connections, shown in the list at once. */
export function useWhatsappActions() {
  return itemActions(whatsapps, useApplyWhatsappChange());
}
