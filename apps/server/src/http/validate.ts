import type { ValidationIssue } from '@wadesk/contracts';
import type { z } from 'zod';
import { sqlStateOf } from '../db/errors.js';
import { AppError } from './app-error.js';

/** Parses input with a contracts schema; a failure becomes ERR_VALIDATION with one issue per field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error);
}

/** A schema's refusal as ERR_VALIDATION: one issue per field, the first, as a form shows it ('Required' before 'Too Short!'). */
export function validationError(error: z.ZodError): AppError {
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.join('.');
    if (!issues.some((i) => i.path === path)) issues.push({ path, message: issue.message });
  }
  const first = issues[0];
  return new AppError('ERR_VALIDATION', first ? `${first.path || 'input'}: ${first.message}` : 'Invalid input', { issues });
}

/** The issue a bare `path: message` validation message stands for (every ERR_VALIDATION answer carries issues). */
export function issueOf(message: string): ValidationIssue {
  const match = /^([\w.[\]]{1,100}): (.+)$/s.exec(message);
  return match ? { path: match[1]!, message: match[2]! } : { path: '', message };
}

/** What the client is told for each PostgreSQL data exception (SQLSTATE class 22) a missed check let through. */
const DATA_ERROR_MESSAGES: Record<string, string> = {
  '22003': 'Number out of range',
  '22P02': 'Invalid value',
  '22021': 'Invalid character',
  '22P05': 'Invalid character',
  '22007': 'Invalid date',
  '22008': 'Invalid date',
};

/**
 * A PostgreSQL data exception (class 22: a NUL byte in text, an integer out of range, an impossible date, ...)
 * as the 400 ERR_VALIDATION it is: bad input that a schema should have refused. Null for any other error.
 */
export function fromDatabaseDataError(err: unknown): AppError | null {
  const state = sqlStateOf(err);
  if (!state?.startsWith('22')) return null;
  const message = DATA_ERROR_MESSAGES[state] ?? 'Invalid value';
  return new AppError('ERR_VALIDATION', `input: ${message}`, { issues: [{ path: '', message }] });
}
