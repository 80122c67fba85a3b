import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from './error-messages.js';
import { ERROR_CODES } from './errors.js';

describe('ERROR_MESSAGES', () => {
  it.each(ERROR_CODES)('%s has a sentence, not the bare code', (code) => {
    const sentence = ERROR_MESSAGES[code];
    expect(sentence, code).toBeTypeOf('string');
    expect(sentence).not.toMatch(/ERR_/);
    expect(sentence).toMatch(/^[A-Z].*[.!…]$/s);
  });
});
