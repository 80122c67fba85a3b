import { MESSAGES } from '@wadesk/contracts';
import type { TFunction } from 'i18next';

const KEYS = Object.fromEntries(Object.entries(MESSAGES).map(([key, text]) => [text, `validation.${key}`])) as Record<
  string,
  string
>;

/** Translates one of the specification's validation messages ('Too Short!', ...); other text passes through. */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = KEYS[message];
  return key ? t(key) : message;
}
