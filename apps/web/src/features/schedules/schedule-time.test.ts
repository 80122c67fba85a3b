import { describe, expect, it } from 'vitest';
import { defaultSendAt, fromLocalInput, toLocalDay, toLocalInput } from './schedule-time';

describe('schedule times (browser time zone in, UTC out)', () => {
  it('reads a datetime-local value as local time and gives back the same wall time', () => {
    const local = new Date(2026, 10, 25, 14, 30, 15);
    expect(fromLocalInput('2026-11-25T14:30:15')).toBe(local.toISOString());
    expect(fromLocalInput('2026-11-25T14:30')).toBe(new Date(2026, 10, 25, 14, 30).toISOString());
    expect(toLocalInput(new Date(fromLocalInput('2026-11-25T14:30:15')!))).toBe('2026-11-25T14:30:15');
    expect(toLocalDay(local)).toBe('2026-11-25');
  });

  it('refuses what is not a date and time', () => {
    for (const value of ['', 'amanhã', '2026-11-25', '25/11/2026 14:30']) expect(fromLocalInput(value)).toBeNull();
  });

  it('starts a new schedule at the next whole hour', () => {
    expect(defaultSendAt(new Date(2026, 10, 25, 23, 10, 5))).toBe('2026-11-26T00:00:00');
  });
});
