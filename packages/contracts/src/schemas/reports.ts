import { z } from 'zod';

/**
 * Reports (issue 36 §6, decision 0042): per attendant, per queue and per day of a period, the figures below. Times
 * are seconds. A figure with nothing to measure is null (a median of no tickets), a count is 0.
 */
const seconds = z.number().nullable().meta({ description: 'Seconds; null when no ticket counts.' });

export const ReportFigures = z
  .object({
    /** Tickets in which the attendant (of the queue: any attendant) sent a message in the period. */
    ticketsHandled: z.number().int(),
    /** Tickets resolved (closed) in the period. */
    ticketsResolved: z.number().int(),
    /** From the ticket's creation to its first attendant message, answered in the period; open time only when the queue keeps business hours. */
    firstResponse: z.object({ median: seconds, p90: seconds, count: z.number().int() }),
    /** From the ticket's creation to its resolution, resolved in the period. */
    resolution: z.object({ median: seconds, p90: seconds, count: z.number().int() }),
    /** Messages typed by attendants in the period (not automatic messages, bulk sends or internal notes). */
    messagesSent: z.number().int(),
    /** Ratings (1–5) received in the period. */
    csat: z.object({ average: z.number().nullable(), count: z.number().int() }),
  })
  .meta({ id: 'ReportFigures' });
export type ReportFigures = z.infer<typeof ReportFigures>;

export const ReportPeriod = z
  .object({
    from: z.string().meta({ description: 'First day, YYYY-MM-DD, in `timeZone`.' }),
    to: z.string().meta({ description: 'Last day (included), YYYY-MM-DD, in `timeZone`.' }),
    timeZone: z.string(),
    start: z.string().meta({ description: 'The period as instants: from `start` (included) …' }),
    end: z.string().meta({ description: '… to `end` (excluded).' }),
  })
  .meta({ id: 'ReportPeriod' });
export type ReportPeriod = z.infer<typeof ReportPeriod>;

export const AttendantReportRow = ReportFigures.extend({ user: z.object({ id: z.number().int(), name: z.string() }) }).meta({ id: 'AttendantReportRow' });
export type AttendantReportRow = z.infer<typeof AttendantReportRow>;

export const QueueReportRow = ReportFigures.extend({
  queue: z.object({ id: z.number().int(), name: z.string(), color: z.string() }).nullable().meta({ description: 'null: tickets without a queue.' }),
}).meta({ id: 'QueueReportRow' });
export type QueueReportRow = z.infer<typeof QueueReportRow>;

export const DailyReportRow = ReportFigures.extend({ day: z.string().meta({ description: 'YYYY-MM-DD in the period’s time zone.' }) }).meta({ id: 'DailyReportRow' });
export type DailyReportRow = z.infer<typeof DailyReportRow>;

export const AttendantsReport = z.object({ period: ReportPeriod, rows: z.array(AttendantReportRow) }).meta({ id: 'AttendantsReport' });
export type AttendantsReport = z.infer<typeof AttendantsReport>;
export const QueuesReport = z.object({ period: ReportPeriod, rows: z.array(QueueReportRow) }).meta({ id: 'QueuesReport' });
export type QueuesReport = z.infer<typeof QueuesReport>;
export const DailyReport = z.object({ period: ReportPeriod, rows: z.array(DailyReportRow) }).meta({ id: 'DailyReport' });
export type DailyReport = z.infer<typeof DailyReport>;

/** The longest period a report covers, in days. */
export const REPORT_MAX_DAYS = 366;
