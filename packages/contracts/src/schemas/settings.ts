import { z } from 'zod';
import { hasNoNulCharacter, INPUT_MESSAGES, MESSAGES } from '../validation.js';

/** "New message after" options for reopening a closed ticket, in seconds (§9). */
export const TIME_CREATE_NEW_TICKET_OPTIONS = [
  10, 30, 60, 300, 1800, 3600, 7200, 21600, 43200, 86400, 172800,
] as const;

const onOff = ['enabled', 'disabled'] as const;

/**
 * Every setting key of the specification (§3), with its kind and default.
 * - option: one of a few values, shown as a select;
 * - text: free text; secret: free text hidden from non-admins;
 * - readonly: shown but never written by PUT (userApiToken).
 */
export const SETTING_DEFINITIONS = {
  userCreation: { kind: 'option', options: onOff, default: 'disabled' },
  groups: { kind: 'option', options: onOff, default: 'enabled' },
  CheckMsgIsGroup: { kind: 'option', options: onOff, default: 'disabled' },
  acceptCalls: { kind: 'option', options: onOff, default: 'enabled' },
  timeCreateNewTicket: {
    kind: 'option',
    options: TIME_CREATE_NEW_TICKET_OPTIONS.map(String),
    default: '3600',
  },
  typebot: { kind: 'option', options: onOff, default: 'disabled' },
  typebotUrl: { kind: 'text', default: '' },
  typebotName: { kind: 'text', default: '' },
  typebotRestart: { kind: 'text', default: '#reiniciar' },
  typebotOff: { kind: 'text', default: '#sair' },
  typebotTime: { kind: 'text', default: '60' },
  emailUser: { kind: 'text', default: '' },
  emailPass: { kind: 'secret', default: '' },
  emailFrom: { kind: 'text', default: '' },
  emailTo: { kind: 'text', default: '' },
  vonageApiKey: { kind: 'secret', default: '' },
  vonageApiSecret: { kind: 'secret', default: '' },
  vonageApiId: { kind: 'text', default: '' },
  userApiToken: { kind: 'readonly', default: '' },
  /** The folder whose files /ZDGMedia2 may send by path (empty: DATA_DIR/bulk-media). */
  bulkMediaFolder: { kind: 'text', default: '' },
} as const satisfies Record<string, SettingDefinition>;

export interface SettingDefinition {
  kind: 'option' | 'text' | 'secret' | 'readonly';
  options?: readonly string[];
  default: string;
}

export type SettingKey = keyof typeof SETTING_DEFINITIONS;
export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_DEFINITIONS, key);
}

export function settingDefinition(key: SettingKey): SettingDefinition {
  return SETTING_DEFINITIONS[key];
}

/** Whether a non-admin may read this setting. */
export function isPublicSetting(key: SettingKey): boolean {
  const kind = settingDefinition(key).kind;
  return kind === 'option' || kind === 'text';
}

export const SettingUpdateInput = z.object({
  value: z
    .string({ error: MESSAGES.required })
    .max(5000, MESSAGES.tooLong)
    .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter),
});
export type SettingUpdateInput = z.infer<typeof SettingUpdateInput>;

/** Validates a value for a key; returns an error message or null. */
export function validateSettingValue(key: SettingKey, value: string): string | null {
  const def = settingDefinition(key);
  if (def.options && !def.options.includes(value)) return `Must be one of: ${def.options.join(', ')}`;
  if (key === 'typebotTime' && value !== '' && !/^\d{1,6}$/.test(value)) return 'Must be a number of minutes';
  if (key === 'bulkMediaFolder' && value !== '' && !value.startsWith('/')) return 'Must be an absolute path';
  return null;
}

export interface SettingDto {
  key: SettingKey;
  value: string;
}
