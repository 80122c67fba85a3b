import { z } from 'zod';
import { calendarDateField, isTimeZone, textField } from '../validation.js';
import { FIELD_MESSAGES, MESSAGES } from '../validation-messages.js';

/** "HH:MM" on a 24-hour clock; "24:00" ends a day (a night shift is 22:00–24:00 plus 00:00–06:00 of the next day). */
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Minutes since midnight of an "HH:MM" time ("24:00" is 1440). */
export function minutesOfTime(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
}

export const BusinessHoursInterval = z
  .object({
    /** 0 = Sunday … 6 = Saturday. */
    weekday: z.number().int().min(0).max(6),
    start: z.string().regex(TIME, FIELD_MESSAGES.invalidTime),
    end: z.string().regex(TIME, FIELD_MESSAGES.invalidTime),
  })
  // An interval past midnight is refused: split it at 24:00 into two days.
  .refine((i) => !TIME.test(i.start) || !TIME.test(i.end) || minutesOfTime(i.start) < minutesOfTime(i.end), {
    message: FIELD_MESSAGES.startBeforeEnd,
    path: ['end'],
  });
export type BusinessHoursInterval = z.infer<typeof BusinessHoursInterval>;

/**
 * An opening schedule (issue 36 §3): the open intervals of each weekday as wall-clock times in `timeZone` (an IANA
 * name), and whole closed days (`holidays`, YYYY-MM-DD in that zone). Intervals of one weekday may not overlap.
 * null where a schedule is asked for means "always open".
 */
export const BusinessHoursSchema = z
  .object({
    timeZone: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(64, MESSAGES.tooLong).refine(isTimeZone, FIELD_MESSAGES.invalidTimeZone),
    days: z.array(BusinessHoursInterval).max(70),
    holidays: z.array(calendarDateField).max(366).default([]),
  })
  .superRefine((hours, ctx) => {
    const byDay = new Map<number, { start: number; end: number; index: number }[]>();
    hours.days.forEach((interval, index) => {
      if (!TIME.test(interval.start) || !TIME.test(interval.end)) return;
      const list = byDay.get(interval.weekday) ?? [];
      list.push({ start: minutesOfTime(interval.start), end: minutesOfTime(interval.end), index });
      byDay.set(interval.weekday, list);
    });
    for (const list of byDay.values()) {
      list.sort((a, b) => a.start - b.start);
      for (let i = 1; i < list.length; i += 1) {
        if (list[i]!.start < list[i - 1]!.end) {
          ctx.addIssue({ code: 'custom', message: FIELD_MESSAGES.overlappingIntervals, path: ['days', list[i]!.index, 'start'] });
        }
      }
    }
  })
  .meta({ id: 'BusinessHours', description: 'Open intervals per weekday (0 = Sunday) in a time zone, and closed days; null = always open.' });
export type BusinessHoursInput = z.input<typeof BusinessHoursSchema>;
export type BusinessHoursDto = z.output<typeof BusinessHoursSchema>;

/** The fields a queue and a connection share (`outOfHoursMessage` is sent once per closed period). */
export const businessHoursFields = {
  businessHours: BusinessHoursSchema.nullable(),
  outOfHoursMessage: textField(30000),
};
