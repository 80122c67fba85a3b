import type { SettingDto } from '@wadesk/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../services/api';

/** The settings query, without the socket (the route guards of the first load read it too). */
export const SETTINGS_KEY = ['settings'] as const;

export function useSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: async () => (await api.get<SettingDto[]>('/settings')).data,
  });
}
