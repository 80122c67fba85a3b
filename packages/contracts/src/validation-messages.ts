// Plain texts, without zod: the web app's first load translates them (i18n/validation-message.ts).

/** The specification's validation messages (§5), used by the server and the forms alike. */
export const MESSAGES = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  invalidEmail: 'Invalid email',
} as const;

/**
 * Messages of the checks that keep input storable (beyond the specification's list): a NUL character, an id
 * or number out of range, a date that is not on the calendar. Shown as written (no translation key).
 */
export const INPUT_MESSAGES = {
  invalidCharacter: 'Invalid character',
  invalidId: 'Invalid id',
  invalidNumber: 'Invalid number',
  invalidDate: 'Invalid date',
  dateFormat: 'must be YYYY-MM-DD',
  invalidDataUrl: 'Not a valid data: URL',
} as const;

/** The settings page's own checks (validateSettingValue): fixed texts, translated by the web (`validation.settings.<key>`). */
export const SETTING_MESSAGES = {
  minutes: 'Must be a number of minutes',
  httpUrl: 'Must be an http(s) address, like https://typebot.example.com',
  port: 'Must be a port number (1 to 65535)',
  host: 'Must be a host name or address',
  pemKey: 'Must be a PEM private key (-----BEGIN PRIVATE KEY----- …)',
  vonageApplicationId: 'Must be the Vonage application id (a UUID)',
  instagramAccountId: 'Must be the numeric account id',
  absolutePath: 'Must be an absolute path',
  retentionDays: 'Must be a number of days from 1 to 36500',
} as const;

/** Other fixed texts of the forms' checks, translated by the web (`validation.fields.<key>`). */
export const FIELD_MESSAGES = {
  invalidColor: 'Must be a colour like #1273DE',
  httpUrl: 'Must be an http or https URL',
  invalidTime: 'Must be a time like 09:00',
  startBeforeEnd: 'Must end after it starts (split a night shift at 24:00)',
  overlappingIntervals: 'Overlaps another interval of the same day',
  invalidTimeZone: 'Must be a time zone like America/Sao_Paulo',
} as const;
