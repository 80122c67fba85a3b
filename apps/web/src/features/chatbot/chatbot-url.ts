import type { SettingDto } from '@wadesk/contracts';

/** The page of the configured Typebot flow: `typebotUrl` + `/` + `typebotName` (Typebot's viewer serves a bot there). */
export function chatbotPageUrl(settings: SettingDto[] | undefined): string | null {
  const value = (key: string) => settings?.find((s) => s.key === key)?.value.trim() ?? '';
  const base = value('typebotUrl').replace(/\/+$/, '');
  const name = value('typebotName');
  if (!base || !name) return null;
  try {
    const url = new URL(`${base}/${encodeURIComponent(name)}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
