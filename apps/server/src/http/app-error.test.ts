import { ERROR_CODES, ERROR_MESSAGES } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';

describe('AppError', () => {
  it.each(ERROR_CODES)('%s without a message of its own carries its sentence, never the bare code', (code) => {
    const err = new AppError(code);
    expect(err.message).toBe(ERROR_MESSAGES[code]);
    expect(err.message).not.toContain(code);
  });

  it('keeps a message of its own', () => {
    expect(new AppError('ERR_VALIDATION', 'Line 2: not a number.').message).toBe('Line 2: not a number.');
  });
});
