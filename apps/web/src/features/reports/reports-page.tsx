import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { isAdmin, REPORT_MAX_DAYS, type ReportFigures } from '@wadesk/contracts';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { currentLanguage } from '../../i18n';
import { DATE_LOCALES } from '../../services/dates';
import { useAuth } from '../auth/auth-context';
import { useQueueList } from '../queues/queues-api';
import { QueueSelect } from '../tickets/queue-select';
import { formatDuration, presetPeriod, type PeriodChoice } from './report-period';
import { useAttendantsReport, useDailyReport, useQueuesReport, type ReportParams } from './reports-api';
import { reportsCsv } from './reports-csv';

/** recharts loads with the chart, after the tables (as the dashboard's). */
const DailyReportChart = lazy(() => import('./daily-report-chart').then((m) => ({ default: m.DailyReportChart })));

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

interface FigureRow extends ReportFigures {
  key: string;
  label: ReactNode;
}

/** One table of figures (attendants or queues); a row per line, horizontally scrollable on a phone. */
function FiguresTable({ title, nameTitle, rows, loading, testId }: { title: string; nameTitle: string; rows: FigureRow[] | undefined; loading: boolean; testId: string }) {
  const { t } = useTranslation();
  const locale = DATE_LOCALES[currentLanguage()];
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const pair = (f: { median: number | null; p90: number | null }) => `${formatDuration(f.median, locale)} · ${formatDuration(f.p90, locale)}`;
  const empty = rows !== undefined && rows.every((r) => r.ticketsHandled + r.ticketsResolved + r.messagesSent + r.firstResponse.count + r.csat.count === 0);
  return (
    <Paper variant="outlined" sx={{ mb: 2 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, px: { xs: 1.5, sm: 2.5 }, pt: { xs: 1.5, sm: 2 } }}>
        {title}
      </Typography>
      {loading && !rows ? (
        <Box sx={{ p: 2 }}>
          <Skeleton variant="rounded" height={96} />
        </Box>
      ) : (
        <>
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" sx={{ minWidth: 760 }}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1 }}>{nameTitle}</TableCell>
                  <TableCell align="right">{t('reports.columns.ticketsHandled')}</TableCell>
                  <TableCell align="right">{t('reports.columns.ticketsResolved')}</TableCell>
                  <TableCell align="right">
                    {t('reports.columns.firstResponse')}
                    <Typography variant="caption" component="div" color="text.secondary">
                      {t('reports.medianP90')}
                    </Typography>
                  </TableCell>
                  <TableCell align="right">
                    {t('reports.columns.resolution')}
                    <Typography variant="caption" component="div" color="text.secondary">
                      {t('reports.medianP90')}
                    </Typography>
                  </TableCell>
                  <TableCell align="right">{t('reports.columns.messagesSent')}</TableCell>
                  <TableCell align="right">{t('reports.columns.csat')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(rows ?? []).map((r) => (
                  <TableRow key={r.key} data-testid={`${testId}-row`}>
                    <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1, maxWidth: 180 }}>
                      {r.label}
                    </TableCell>
                    <TableCell align="right" data-testid="handled">{number.format(r.ticketsHandled)}</TableCell>
                    <TableCell align="right" data-testid="resolved">{number.format(r.ticketsResolved)}</TableCell>
                    <TableCell align="right" data-testid="first-response">{pair(r.firstResponse)}</TableCell>
                    <TableCell align="right" data-testid="resolution">{pair(r.resolution)}</TableCell>
                    <TableCell align="right" data-testid="messages">{number.format(r.messagesSent)}</TableCell>
                    <TableCell align="right" data-testid="csat">
                      {r.csat.average === null ? '—' : t('reports.csatValue', { average: number.format(r.csat.average), count: r.csat.count })}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {empty && (
            <Typography color="text.secondary" sx={{ px: { xs: 1.5, sm: 2.5 }, py: 1.5 }} data-testid={`${testId}-empty`}>
              {t('reports.empty')}
            </Typography>
          )}
        </>
      )}
    </Paper>
  );
}

/**
 * Issue 36 §6: per attendant, per queue and per day over a period (today, 7 or 30 days, or days chosen) in the
 * browser's time zone, for the chosen queues; CSV export. Admins see everyone; an attendant sees their own line and
 * days (the server decides, decision 0042).
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const { data: allQueues } = useQueueList(admin);
  const choices = admin ? (allQueues ?? []) : (user?.queues ?? []);
  const [choice, setChoice] = useState<PeriodChoice>('7');
  const [custom, setCustom] = useState(() => presetPeriod('7'));
  const [queueIds, setQueueIds] = useState<number[] | undefined>(undefined);

  const period = choice === 'custom' ? custom : presetPeriod(choice);
  const span = daysBetween(period.from, period.to);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(period.from) && /^\d{4}-\d{2}-\d{2}$/.test(period.to) && span >= 0 && span < REPORT_MAX_DAYS;
  const params: ReportParams = useMemo(() => ({ from: period.from, to: period.to, queueIds }), [period.from, period.to, queueIds]);
  const shown = valid ? params : { ...params, from: period.to, to: period.to };

  const attendants = useAttendantsReport(shown);
  const queues = useQueuesReport(shown, admin);
  const daily = useDailyReport(shown);
  const failed = attendants.isError || queues.isError || daily.isError;

  const exportCsv = () => {
    if (!attendants.data || !daily.data) return;
    const csv = reportsCsv(
      { period: attendants.data.period, attendants: attendants.data.rows, queues: admin ? queues.data?.rows : undefined, daily: daily.data.rows },
      {
        section: { attendants: t('reports.csv.attendants'), queues: t('reports.csv.queues'), daily: t('reports.csv.daily') },
        name: t('reports.columns.name'),
        day: t('reports.columns.day'),
        noQueue: t('reports.noQueue'),
        ticketsHandled: t('reports.columns.ticketsHandled'),
        ticketsResolved: t('reports.columns.ticketsResolved'),
        firstResponseMedian: t('reports.csv.firstResponseMedian'),
        firstResponseP90: t('reports.csv.firstResponseP90'),
        resolutionMedian: t('reports.csv.resolutionMedian'),
        resolutionP90: t('reports.csv.resolutionP90'),
        messagesSent: t('reports.columns.messagesSent'),
        csatAverage: t('reports.csv.csatAverage'),
        csatCount: t('reports.csv.csatCount'),
      },
    );
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `reports-${attendants.data.period.from}-${attendants.data.period.to}.csv`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const refetch = () => {
    void attendants.refetch();
    void daily.refetch();
    if (admin) void queues.refetch();
  };

  return (
    <Page
      title={t('pages.reports')}
      actions={
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          onClick={exportCsv}
          disabled={!attendants.data || !daily.data}
          data-testid="reports-export"
        >
          {t('reports.export')}
        </Button>
      }
    >
      <Box data-testid="reports-page">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2, alignItems: { xs: 'stretch', md: 'center' }, flexWrap: 'wrap' }} useFlexGap>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={choice}
            onChange={(_, value: PeriodChoice | null) => {
              if (!value) return;
              if (value === 'custom' && choice !== 'custom') setCustom(period);
              setChoice(value);
            }}
            aria-label={t('reports.period.label')}
            data-testid="report-period"
            sx={{ flexWrap: 'wrap' }}
          >
            <ToggleButton value="today">{t('reports.period.today')}</ToggleButton>
            <ToggleButton value="7">{t('reports.period.last7')}</ToggleButton>
            <ToggleButton value="30">{t('reports.period.last30')}</ToggleButton>
            <ToggleButton value="custom">{t('reports.period.custom')}</ToggleButton>
          </ToggleButtonGroup>
          {choice === 'custom' && (
            <Stack direction="row" spacing={1}>
              <TextField
                type="date"
                size="small"
                label={t('reports.period.from')}
                value={custom.from}
                onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'report-from', max: custom.to } }}
                error={!valid}
                sx={{ flex: 1 }}
              />
              <TextField
                type="date"
                size="small"
                label={t('reports.period.to')}
                value={custom.to}
                onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'report-to', min: custom.from } }}
                error={!valid}
                sx={{ flex: 1 }}
              />
            </Stack>
          )}
          <Box sx={{ flex: 1, display: { xs: 'none', md: 'block' } }} />
          {choices.length > 0 && (
            <Box data-testid="report-queues">
              <QueueSelect queues={choices} selected={queueIds ?? choices.map((q) => q.id)} onChange={(ids) => setQueueIds(ids.length === choices.length ? undefined : ids)} />
            </Box>
          )}
        </Stack>
        {!valid && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t('reports.period.invalid')}
          </Alert>
        )}
        {!admin && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('reports.ownLine')}
          </Typography>
        )}
        {failed && (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={refetch}>
                {t('reports.retry')}
              </Button>
            }
          >
            {t('reports.loadError')}
          </Alert>
        )}
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, mb: 2 }} data-testid="report-daily">
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('reports.dailyTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('reports.dailySubtitle')}
          </Typography>
          {daily.data ? (
            <Suspense fallback={<Skeleton variant="rounded" height={280} />}>
              <DailyReportChart rows={daily.data.rows} />
            </Suspense>
          ) : (
            <Skeleton variant="rounded" height={280} />
          )}
        </Paper>
        <FiguresTable
          title={t('reports.attendantsTitle')}
          nameTitle={t('reports.columns.attendant')}
          loading={attendants.isLoading}
          rows={attendants.data?.rows.map((r) => ({ ...r, key: String(r.user.id), label: r.user.name }))}
          testId="report-attendants"
        />
        {admin && (
          <FiguresTable
            title={t('reports.queuesTitle')}
            nameTitle={t('reports.columns.queue')}
            loading={queues.isLoading}
            rows={queues.data?.rows.map((r) => ({
              ...r,
              key: String(r.queue?.id ?? 'none'),
              label: r.queue ? (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: r.queue.color, flexShrink: 0 }} />
                  <span>{r.queue.name}</span>
                </Stack>
              ) : (
                t('reports.noQueue')
              ),
            }))}
            testId="report-queues-table"
          />
        )}
        <Typography variant="caption" color="text.secondary">
          {t('reports.businessHoursNote')}
        </Typography>
      </Box>
    </Page>
  );
}

