import { z } from 'zod';

/** The specification's validation messages (§5), used by the server and the forms alike. */
export const MESSAGES = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  invalidEmail: 'Invalid email',
} as const;

/** A required string between `min` and `max` characters, trimmed. */
export function boundedString(min: number, max: number) {
  return z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .min(min, MESSAGES.tooShort)
    .max(max, MESSAGES.tooLong);
}

export const emailField = z
  .string({ error: MESSAGES.required })
  .trim()
  .toLowerCase()
  .min(1, MESSAGES.required)
  .max(254, MESSAGES.tooLong)
  .pipe(z.email({ error: MESSAGES.invalidEmail }));

export const passwordField = z
  .string({ error: MESSAGES.required })
  .min(1, MESSAGES.required)
  .min(5, MESSAGES.tooShort)
  .max(50, MESSAGES.tooLong);

/** An id in a path or body: a positive integer, given as number or numeric string. */
export const idField = z.coerce.number({ error: MESSAGES.required }).int().positive();

/** `pageNumber` query parameter, 1-based. */
export const pageNumberField = z.coerce.number().int().min(1).max(100000).default(1);

export const searchParamField = z
  .string()
  .trim()
  .max(200, MESSAGES.tooLong)
  .transform((s) => s.toLowerCase())
  .default('');
