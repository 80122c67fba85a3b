import type { ValidationIssue } from '@wadesk/contracts';
import type { z } from 'zod';
import { AppError } from './app-error.js';

/** Parses input with a contracts schema; a failure becomes ERR_VALIDATION with one issue per field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  // One issue per field: the first, as a form shows it ('Required' before 'Too Short!').
  const issues: ValidationIssue[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    if (!issues.some((i) => i.path === path)) issues.push({ path, message: issue.message });
  }
  const first = issues[0];
  throw new AppError('ERR_VALIDATION', first ? `${first.path || 'input'}: ${first.message}` : 'Invalid input', { issues });
}
