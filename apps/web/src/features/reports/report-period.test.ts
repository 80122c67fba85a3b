import { csvCellText } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { formatDuration, localDay, presetPeriod } from './report-period';
import { reportsCsv, type ReportCsvLabels } from './reports-csv';

describe('the reports page period', () => {
  it('ends the presets today, today included', () => {
    const now = new Date(2026, 2, 3, 10, 0); // 3 March 2026, local time
    expect(localDay(now)).toBe('2026-03-03');
    expect(presetPeriod('today', now)).toEqual({ from: '2026-03-03', to: '2026-03-03' });
    expect(presetPeriod('7', now)).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(presetPeriod('30', now)).toEqual({ from: '2026-02-02', to: '2026-03-03' });
  });

  it('writes a duration in its two largest units, in the language', () => {
    expect(formatDuration(null, 'en-US')).toBe('—');
    expect(formatDuration(45, 'en-US')).toBe('45 sec');
    expect(formatDuration(5400, 'en-US')).toBe('1 hr 30 min');
    expect(formatDuration(90061, 'en-US')).toBe('1 day 1 hr');
    expect(formatDuration(3600, 'pt-BR')).toBe('1 h');
    expect(formatDuration(0, 'en-US')).toBe('0 sec');
  });
});

describe('the reports CSV', () => {
  const labels: ReportCsvLabels = {
    section: { attendants: 'Per attendant', queues: 'Per queue', daily: 'Per day' },
    name: 'Name',
    day: 'Day',
    noQueue: 'No queue',
    ticketsHandled: 'Handled',
    ticketsResolved: 'Resolved',
    firstResponseMedian: 'FR median (s)',
    firstResponseP90: 'FR p90 (s)',
    resolutionMedian: 'Res median (s)',
    resolutionP90: 'Res p90 (s)',
    messagesSent: 'Messages',
    csatAverage: 'CSAT',
    csatCount: 'Ratings',
  };
  const figures = {
    ticketsHandled: 4,
    ticketsResolved: 3,
    firstResponse: { median: 150, p90: 474, count: 4 },
    resolution: { median: 1200, p90: 1680, count: 3 },
    messagesSent: 6,
    csat: { average: 4.5, count: 2 },
  };

  it('writes each table under its title, times in seconds, names made safe for spreadsheets', () => {
    const csv = reportsCsv(
      {
        period: { from: '2026-03-02', to: '2026-03-03', timeZone: 'America/Sao_Paulo' },
        attendants: [{ user: { id: 1, name: '=Ana' }, ...figures }],
        queues: [{ queue: null, ...figures }],
        daily: [{ day: '2026-03-02', ...figures }],
      },
      labels,
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[2]).toBe('Per attendant');
    expect(lines[3]).toBe('Name,Handled,Resolved,FR median (s),FR p90 (s),Res median (s),Res p90 (s),Messages,CSAT,Ratings');
    expect(lines[4]).toBe(`"'=Ana",4,3,150,474,1200,1680,6,4.5,2`);
    expect(csvCellText("'=Ana")).toBe('=Ana');
    expect(lines).toContain('No queue,4,3,150,474,1200,1680,6,4.5,2');
    expect(lines).toContain('2026-03-02,4,3,150,474,1200,1680,6,4.5,2');
  });
});
