import type { SettingDto, SettingKey } from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';
import { SETTINGS_KEY } from './settings-query';

export { SETTINGS_KEY, useSettings } from './settings-query';

export async function saveSetting(key: SettingKey, value: string): Promise<SettingDto> {
  return (await api.put<SettingDto>(`/settings/${key}`, { value })).data;
}

export async function regenerateApiToken(): Promise<SettingDto> {
  return (await api.post<SettingDto>('/settings/userApiToken/regenerate')).data;
}

/** Writes one setting into the cached list. */
export function useApplySetting() {
  const queryClient = useQueryClient();
  return useCallback(
    (setting: SettingDto) => {
      queryClient.setQueryData<SettingDto[]>(SETTINGS_KEY, (list) => {
        if (!list) return list;
        return list.some((s) => s.key === setting.key)
          ? list.map((s) => (s.key === setting.key ? setting : s))
          : [...list, setting];
      });
    },
    [queryClient],
  );
}

/** Live updates from the socket `settings` event. */
export function useSettingsLiveUpdates(): void {
  const apply = useApplySetting();
  useSocketEvent('settings', (e) => apply(e.setting));
}
