import { z } from 'zod';
import { hasNoNulCharacter, INPUT_MESSAGES, MESSAGES, SETTING_MESSAGES } from '../validation.js';

/** "New message after" options for reopening a closed ticket, in seconds (§9). */
export const TIME_CREATE_NEW_TICKET_OPTIONS = [
  10, 30, 60, 300, 1800, 3600, 7200, 21600, 43200, 86400, 172800,
] as const;

const onOff = ['enabled', 'disabled'] as const;

/**
 * The tools an admin may open to attendants (the setting attendantTools, issue 32): bulk sends, group actions,
 * scheduled messages (and DISPARAR's page), history import (the page and the chat's), the chatbot's page, a
 * ticket's e-mail, Instagram direct, SMS, voice calls, and the contacts' import and export. Admins always use them.
 */
export const ATTENDANT_TOOLS = [
  'bulk',
  'groups',
  'schedules',
  'history',
  'chatbot',
  'email',
  'instagram',
  'sms',
  'voice',
  'contactsImport',
  'contactsExport',
] as const;
export type AttendantTool = (typeof ATTENDANT_TOOLS)[number];

function isAttendantTool(name: string): name is AttendantTool {
  return (ATTENDANT_TOOLS as readonly string[]).includes(name);
}

/** The names of a comma-separated list (spaces around them ignored, empty entries dropped). */
function listEntries(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The tools a value of attendantTools opens to attendants; unknown names are left out (the setting refuses them). */
export function parseAttendantTools(value: string): ReadonlySet<AttendantTool> {
  return new Set(listEntries(value).filter(isAttendantTool));
}

/** callRejectMessage's default: the contact's language is unknown, so the three languages of the desk. */
export const DEFAULT_CALL_REJECT_MESSAGE = [
  'Não atendemos chamadas por aqui. Por favor, envie uma mensagem.',
  "We can't take calls here. Please send us a message.",
  'No atendemos llamadas por aquí. Por favor, envíanos un mensaje.',
].join('\n');

/** csatMessage's default: Portuguese, as the other default messages (protocolMessage). */
export const DEFAULT_CSAT_MESSAGE =
  'Como você avalia o nosso atendimento, {{name}}? Responda com uma nota de 1 (ruim) a 5 (excelente). Se quiser, envie um comentário em seguida.';

/**
 * Every setting key of the specification (§3), with its kind and default.
 * - option: one of a few values, shown as a select;
 * - text: free text; secret: free text hidden from non-admins;
 * - readonly: shown but never written by PUT (userApiToken).
 * `adminsOnly`: a text or option that attendants do not read (a login, the server's own addresses and paths).
 */
export const SETTING_DEFINITIONS = {
  userCreation: { kind: 'option', options: onOff, default: 'disabled' },
  groups: { kind: 'option', options: onOff, default: 'enabled' },
  CheckMsgIsGroup: { kind: 'option', options: onOff, default: 'disabled' },
  acceptCalls: { kind: 'option', options: onOff, default: 'enabled' },
  /** Sent to a contact whose call was rejected (acceptCalls off); empty: nothing is sent. One text in pt, en and es. */
  callRejectMessage: { kind: 'text', default: DEFAULT_CALL_REJECT_MESSAGE },
  timeCreateNewTicket: {
    kind: 'option',
    options: TIME_CREATE_NEW_TICKET_OPTIONS.map(String),
    default: '3600',
  },
  /**
   * Sent to the contact when their ticket moves to another queue or attendant (issue 15); empty (the default): off.
   * Placeholders: those of the greetings ({{name}}, {{user}}, {{queue}}, …) and {{destination}} (the attendant,
   * the queue, or "attendant (queue)").
   */
  transferMessage: { kind: 'text', default: '' },
  /** Sent to the contact by the Protocolo button; {{protocol}} is the number (and the greetings' placeholders); empty: not sent. */
  protocolMessage: { kind: 'text', default: '*Protocolo:* {{protocol}}' },
  /**
   * Customer satisfaction (issue 36 §5, decision 0041): when an attendant resolves a 1:1 ticket, the contact is asked
   * csatMessage (the greetings' placeholders) and a reply of 1 to 5 within 24 h is kept on that ticket.
   */
  csatEnabled: { kind: 'option', options: onOff, default: 'disabled' },
  csatMessage: { kind: 'text', default: DEFAULT_CSAT_MESSAGE },
  typebot: { kind: 'option', options: onOff, default: 'disabled' },
  typebotUrl: { kind: 'text', default: '' },
  typebotName: { kind: 'text', default: '' },
  typebotRestart: { kind: 'text', default: '#reiniciar' },
  typebotOff: { kind: 'text', default: '#sair' },
  typebotTime: { kind: 'text', default: '60' },
  emailUser: { kind: 'text', default: '', adminsOnly: true },
  emailPass: { kind: 'secret', default: '' },
  emailFrom: { kind: 'text', default: '' },
  emailTo: { kind: 'text', default: '' },
  /** The SMTP server (not in the specification, which leaves them to the old backend's configuration). */
  emailHost: { kind: 'text', default: '', adminsOnly: true },
  emailPort: { kind: 'text', default: '587', adminsOnly: true },
  /** tls: TLS from the start (port 465); starttls: upgrade after connecting (587); none: plain (tests, relays). */
  emailSecure: { kind: 'option', options: ['tls', 'starttls', 'none'], default: 'starttls', adminsOnly: true },
  vonageApiKey: { kind: 'secret', default: '' },
  vonageApiSecret: { kind: 'secret', default: '' },
  vonageApiId: { kind: 'text', default: '', adminsOnly: true },
  /** The Vonage application's private key (PEM), which signs the Voice API's JWTs. */
  vonagePrivateKey: { kind: 'secret', default: '' },
  /** Instagram direct through Meta's Graph API: the professional account's id and a token with instagram_manage_messages. */
  instagramAccountId: { kind: 'text', default: '', adminsOnly: true },
  instagramAccessToken: { kind: 'secret', default: '' },
  /** The Meta app's secret: checks the webhook's X-Hub-Signature-256. */
  instagramAppSecret: { kind: 'secret', default: '' },
  /** What Meta's webhook handshake must send as hub.verify_token. */
  instagramVerifyToken: { kind: 'secret', default: '' },
  userApiToken: { kind: 'readonly', default: '' },
  /**
   * The tools attendants may use (issue 32): a comma-separated list out of ATTENDANT_TOOLS; all of them by default
   * (§6: every page but users, queues and settings is open to any signed-in user); empty: none.
   */
  attendantTools: { kind: 'text', default: ATTENDANT_TOOLS.join(',') },
  /** The folder whose files /ZDGMedia2 may send by path (empty: DATA_DIR/bulk-media); attendants see its label only. */
  bulkMediaFolder: { kind: 'text', default: '', adminsOnly: true },
  /** Two-factor sign-in (issue 37 §1): admins without it are made to turn it on before anything else. */
  mfaRequiredForAdmins: { kind: 'option', options: onOff, default: 'disabled', adminsOnly: true },
  /** Days the audit log keeps an entry (issue 37 §2): a daily job deletes older ones. A whole number, 1 to 36500. */
  auditRetentionDays: { kind: 'text', default: '365', adminsOnly: true },
} as const satisfies Record<string, SettingDefinition>;

export interface SettingDefinition {
  kind: 'option' | 'text' | 'secret' | 'readonly';
  options?: readonly string[];
  default: string;
  /** Read by admins only (GET /api/settings and the `settings` event leave it out for attendants). */
  adminsOnly?: boolean;
}

export type SettingKey = keyof typeof SETTING_DEFINITIONS;
export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_DEFINITIONS, key);
}

export function settingDefinition(key: SettingKey): SettingDefinition {
  return SETTING_DEFINITIONS[key];
}

/** A plain e-mail address (`name@host.tld`), for emailFrom, emailTo and the e-mail dialogs. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && z.email().safeParse(value).success;
}

/** What an admin reads back of a secret: never the value, only whether one is set and its last two characters. */
export function maskSecret(value: string): string {
  if (value === '') return '';
  return `••••••••${value.length >= 12 ? value.slice(-2) : ''}`;
}

/** Whether a value read back is a mask (saving it unchanged would overwrite the secret with the mask). */
export function isMaskedSecret(value: string): boolean {
  return value.startsWith('••••••••');
}

/** Whether a non-admin may read this setting: options and texts, except the admins-only ones. */
export function isPublicSetting(key: SettingKey): boolean {
  const def = settingDefinition(key);
  return (def.kind === 'option' || def.kind === 'text') && def.adminsOnly !== true;
}

export const SettingUpdateInput = z.object({
  value: z
    .string({ error: MESSAGES.required })
    .max(5000, MESSAGES.tooLong)
    .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter),
});
export type SettingUpdateInput = z.infer<typeof SettingUpdateInput>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Validates a value for a key; returns an error message or null. */
export function validateSettingValue(key: SettingKey, value: string): string | null {
  const def = settingDefinition(key);
  if (def.options && !def.options.includes(value)) return `Must be one of: ${def.options.join(', ')}`;
  if (key === 'typebotTime' && value !== '' && !/^\d{1,6}$/.test(value)) return SETTING_MESSAGES.minutes;
  if (key === 'typebotUrl' && value.trim() !== '' && !isHttpUrl(value.trim())) return SETTING_MESSAGES.httpUrl;
  if (key === 'emailPort' && value !== '' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
    return SETTING_MESSAGES.port;
  }
  if (key === 'emailHost' && value !== '' && !/^[A-Za-z0-9.-]{1,253}$|^\[[0-9A-Fa-f:.]+\]$/.test(value)) return SETTING_MESSAGES.host;
  if ((key === 'emailFrom' || key === 'emailTo') && value !== '' && !isEmailAddress(value)) return MESSAGES.invalidEmail;
  if (key === 'vonagePrivateKey' && value !== '' && !/^-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+-----END [A-Z ]*PRIVATE KEY-----\s*$/.test(value.trim())) {
    return SETTING_MESSAGES.pemKey;
  }
  if (key === 'vonageApiId' && value !== '' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
    return SETTING_MESSAGES.vonageApplicationId;
  }
  if (key === 'instagramAccountId' && value !== '' && !/^\d{5,30}$/.test(value)) return SETTING_MESSAGES.instagramAccountId;
  if (key === 'bulkMediaFolder' && value !== '' && !value.startsWith('/')) return SETTING_MESSAGES.absolutePath;
  if (key === 'auditRetentionDays' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 36500)) {
    return SETTING_MESSAGES.retentionDays;
  }
  if (key === 'attendantTools') {
    const unknown = listEntries(value).filter((name) => !isAttendantTool(name));
    if (unknown.length > 0) return `Unknown tool: ${unknown.join(', ')}. Must be among: ${ATTENDANT_TOOLS.join(', ')}`;
  }
  return null;
}

export const SettingDto = z
  .object({
    key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]),
    value: z.string().meta({ description: 'A secret reads as a mask to admins (see maskSecret); attendants do not read secrets.' }),
  })
  .meta({ id: 'Setting' });
export type SettingDto = z.infer<typeof SettingDto>;
