import { FIELD_MESSAGES, MESSAGES, SETTING_MESSAGES } from '@wadesk/contracts';
import type { TFunction } from 'i18next';

const KEYS: Record<string, string> = Object.fromEntries([
  ...Object.entries(MESSAGES).map(([key, text]) => [text, `validation.${key}`]),
  ...Object.entries(SETTING_MESSAGES).map(([key, text]) => [text, `validation.settings.${key}`]),
  ...Object.entries(FIELD_MESSAGES).map(([key, text]) => [text, `validation.fields.${key}`]),
]);

/** Translates one of the specification's validation messages ('Too Short!', ...) or the settings' checks; other text passes through. */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = KEYS[message];
  return key ? t(key) : message;
}
