import { describe, expect, it } from 'vitest';
import { formatShortDateTime } from './format-date';

describe('formatShortDateTime', () => {
  it('formats a date as dd/MM/yy HH:mm', () => {
    expect(formatShortDateTime(new Date(2025, 0, 5, 9, 7).toISOString())).toBe('05/01/25 09:07');
  });

  it('answers an empty text for an invalid date', () => {
    expect(formatShortDateTime('nope')).toBe('');
  });
});
