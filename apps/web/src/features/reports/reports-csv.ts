import { toCsv, type AttendantReportRow, type DailyReportRow, type QueueReportRow, type ReportFigures } from '@wadesk/contracts';

/** The column titles, translated by the page. */
export interface ReportCsvLabels {
  section: { attendants: string; queues: string; daily: string };
  name: string;
  day: string;
  noQueue: string;
  ticketsHandled: string;
  ticketsResolved: string;
  firstResponseMedian: string;
  firstResponseP90: string;
  resolutionMedian: string;
  resolutionP90: string;
  messagesSent: string;
  csatAverage: string;
  csatCount: string;
}

const figureCells = (f: ReportFigures) => [
  f.ticketsHandled,
  f.ticketsResolved,
  f.firstResponse.median,
  f.firstResponse.p90,
  f.resolution.median,
  f.resolution.p90,
  f.messagesSent,
  f.csat.average,
  f.csat.count,
];

/**
 * The page's tables as one CSV document (the desk's one writer, contracts' toCsv): the attendants, the queues (when
 * shown) and the days, each under its title; times in seconds so that a spreadsheet can compute with them.
 */
export function reportsCsv(
  report: { period: { from: string; to: string; timeZone: string }; attendants: AttendantReportRow[]; queues?: QueueReportRow[]; daily: DailyReportRow[] },
  labels: ReportCsvLabels,
): string {
  const figureTitles = [
    labels.ticketsHandled,
    labels.ticketsResolved,
    labels.firstResponseMedian,
    labels.firstResponseP90,
    labels.resolutionMedian,
    labels.resolutionP90,
    labels.messagesSent,
    labels.csatAverage,
    labels.csatCount,
  ];
  const rows: (string | number | null)[][] = [[`${report.period.from} – ${report.period.to} (${report.period.timeZone})`], []];
  rows.push([labels.section.attendants], [labels.name, ...figureTitles]);
  for (const r of report.attendants) rows.push([r.user.name, ...figureCells(r)]);
  if (report.queues) {
    rows.push([], [labels.section.queues], [labels.name, ...figureTitles]);
    for (const r of report.queues) rows.push([r.queue?.name ?? labels.noQueue, ...figureCells(r)]);
  }
  rows.push([], [labels.section.daily], [labels.day, ...figureTitles]);
  for (const r of report.daily) rows.push([r.day, ...figureCells(r)]);
  return toCsv(rows);
}
