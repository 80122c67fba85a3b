/** The period choices of the reports page: today, the last 7 or 30 days (today included), or days chosen. */
export type PeriodChoice = 'today' | '7' | '30' | 'custom';

/** A day as YYYY-MM-DD on the calendar of `now` in the browser's zone. */
export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `day` moved by `n` calendar days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The days of a preset period ending today. */
export function presetPeriod(choice: Exclude<PeriodChoice, 'custom'>, now: Date = new Date()): { from: string; to: string } {
  const to = localDay(now);
  return { from: choice === 'today' ? to : addDays(to, -(Number(choice) - 1)), to };
}

/**
 * A duration in seconds as the language writes it, in its two largest units (`1 h 30 min`, `45 s`); '—' when there
 * is none.
 */
export function formatDuration(seconds: number | null, locale: string): string {
  if (seconds === null) return '—';
  const total = Math.max(0, Math.round(seconds));
  const parts: [number, 'day' | 'hour' | 'minute' | 'second'][] = [
    [Math.floor(total / 86_400), 'day'],
    [Math.floor((total % 86_400) / 3_600), 'hour'],
    [Math.floor((total % 3_600) / 60), 'minute'],
    [total % 60, 'second'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(0);
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(n))
    .join(' ');
}
