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
