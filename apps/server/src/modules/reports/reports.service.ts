import {
  dayOfInstant,
  isAdmin,
  REPORT_MAX_DAYS,
  type AttendantsReport,
  type DailyReport,
  type QueuesReport,
  type ReportFigures,
  type ReportPeriod,
} from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Clock } from '../tickets/tickets.service.js';
import { ReportsRepository, type ReportFilter, type ReportRow } from './reports.repository.js';

export interface ReportQuery {
  /** First and last day (included), YYYY-MM-DD in `timeZone`; by default the last 7 days up to today. */
  from?: string;
  to?: string;
  queueIds?: number[];
  /** The viewer's IANA zone: the days are theirs. */
  timeZone: string;
}

/** Days between two YYYY-MM-DD days (`to` − `from`). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export const EMPTY_FIGURES: ReportFigures = {
  ticketsHandled: 0,
  ticketsResolved: 0,
  firstResponse: { median: null, p90: null, count: 0 },
  resolution: { median: null, p90: null, count: 0 },
  messagesSent: 0,
  csat: { average: null, count: 0 },
};

function figuresOf(row: ReportRow | undefined): ReportFigures {
  if (!row) return EMPTY_FIGURES;
  const { key: _key, name: _name, color: _color, ...figures } = row;
  return figures;
}

/**
 * Reports (issue 36 §6, decision 0042). Admins see every attendant and queue; an attendant sees their own line only
 * (the attendants report holds their row, the daily report counts their own work) and is refused the queues report,
 * which sums their colleagues' work.
 */
export class ReportsService {
  constructor(
    private readonly db: Database,
    private readonly now: Clock = () => new Date(),
  ) {}

  private repo(): ReportsRepository {
    return new ReportsRepository(this.db);
  }

  /** The period asked for, checked: `from` ≤ `to`, at most REPORT_MAX_DAYS days. */
  private async period(query: ReportQuery): Promise<{ period: ReportPeriod; days: string[]; filter: Omit<ReportFilter, 'userId'> }> {
    const to = query.to ?? dayOfInstant(this.now(), query.timeZone);
    const from = query.from ?? addDays(to, -6);
    const span = daysBetween(from, to);
    if (span < 0) throw new AppError('ERR_VALIDATION', 'The period must start before it ends.', { issues: [{ path: 'from', message: 'must not be after to' }] });
    if (span >= REPORT_MAX_DAYS) {
      throw new AppError('ERR_VALIDATION', `A report covers at most ${REPORT_MAX_DAYS} days.`, { issues: [{ path: 'from', message: `at most ${REPORT_MAX_DAYS} days` }] });
    }
    const [start, end] = await this.repo().bounds(from, to, query.timeZone);
    return {
      period: { from, to, timeZone: query.timeZone, start: start.toISOString(), end: end.toISOString() },
      days: Array.from({ length: span + 1 }, (_, i) => addDays(from, i)),
      filter: { start, end, timeZone: query.timeZone, queueIds: query.queueIds },
    };
  }

  /** One row per user (admins: every user; an attendant: their own). */
  async attendants(user: AuthUser, query: ReportQuery): Promise<AttendantsReport> {
    const { period, filter } = await this.period(query);
    const admin = isAdmin(user);
    const repo = this.repo();
    const rows = await repo.figures('user', admin ? filter : { ...filter, userId: user.id });
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const people = admin ? await repo.users() : [{ id: user.id, name: user.name }];
    return { period, rows: people.map((p) => ({ user: { id: p.id, name: p.name }, ...figuresOf(byKey.get(String(p.id))) })) };
  }

  /** One row per queue (the chosen ones, else all), and one for tickets without a queue when it has figures. Admins only. */
  async queues(user: AuthUser, query: ReportQuery): Promise<QueuesReport> {
    if (!isAdmin(user)) throw new AppError('ERR_NO_PERMISSION');
    const { period, filter } = await this.period(query);
    const repo = this.repo();
    const rows = await repo.figures('queue', filter);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const queues = await repo.queues(query.queueIds);
    const report: QueuesReport = {
      period,
      rows: queues.map((q) => ({ queue: { id: q.id, name: q.name, color: q.color }, ...figuresOf(byKey.get(String(q.id))) })),
    };
    const none = byKey.get('');
    if (none) report.rows.push({ queue: null, ...figuresOf(none) });
    return report;
  }

  /** One row per day of the period (every day, empty ones too): all the work for admins, their own for an attendant. */
  async daily(user: AuthUser, query: ReportQuery): Promise<DailyReport> {
    const { period, days, filter } = await this.period(query);
    const rows = await this.repo().figures('day', isAdmin(user) ? filter : { ...filter, userId: user.id });
    const byKey = new Map(rows.map((r) => [r.key, r]));
    return { period, rows: days.map((day) => ({ day, ...figuresOf(byKey.get(day)) })) };
  }
}
