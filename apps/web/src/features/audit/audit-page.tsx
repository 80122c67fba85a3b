import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
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
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntryDto } from '@wadesk/contracts';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { formatDateTime } from '../../services/dates';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useColleagues } from '../tickets/tickets-api';
import { exportAuditCsv, useAuditPage, type AuditFilters } from './audit-api';
import { fieldChanges, valueText } from './audit-diff';

/** The instant a day (YYYY-MM-DD) starts in the browser's time zone, `days` later. */
function dayStart(day: string, days = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + days).toISOString();
}

function Who({ entry }: { entry: AuditEntryDto }) {
  const { t } = useTranslation();
  switch (entry.actorKind) {
    case 'user':
      return <>{entry.userName ?? t('audit.actor.removedUser', { id: entry.userId })}</>;
    case 'token':
      return <>{t('audit.actor.token')}</>;
    case 'system':
      return <>{t('audit.actor.system')}</>;
    case 'anonymous':
      return (
        <>
          {t('audit.actor.anonymous')}
          {entry.userName && (
            <Typography variant="caption" component="div" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {entry.userName}
            </Typography>
          )}
        </>
      );
  }
}

/** What a row expands to: each field that changed, before → after. */
function Changes({ entry }: { entry: AuditEntryDto }) {
  const { t } = useTranslation();
  const changes = fieldChanges(entry.before, entry.after);
  if (changes.length === 0) return <Typography variant="body2" color="text.secondary">{t('audit.details.none')}</Typography>;
  return (
    <Table size="small" aria-label={t('audit.columns.changes')} data-testid="audit-changes">
      <TableHead>
        <TableRow>
          <TableCell>{t('audit.details.field')}</TableCell>
          <TableCell>{t('audit.details.before')}</TableCell>
          <TableCell>{t('audit.details.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((c) => (
          <TableRow key={c.path}>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{c.path}</TableCell>
            <TableCell sx={{ color: 'error.main', wordBreak: 'break-word', maxWidth: 320 }}>{valueText(c.before)}</TableCell>
            <TableCell sx={{ color: 'success.main', wordBreak: 'break-word', maxWidth: 320 }}>{valueText(c.after)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function useTargetText(entry: AuditEntryDto): string {
  const { t } = useTranslation();
  if (!entry.targetType) return '—';
  return `${t(`audit.targets.${entry.targetType}`, { defaultValue: entry.targetType })}${entry.targetId ? ` · ${entry.targetId}` : ''}`;
}

function ExpandButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = open ? t('audit.details.hide') : t('audit.details.show');
  return (
    <IconButton size="small" aria-expanded={open} aria-label={label} title={label} onClick={onToggle} data-testid="audit-expand">
      {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
    </IconButton>
  );
}

/** Under 600 px: one card per entry (action, when, who, from where, target), expanding to its changes. */
function EntryCard({ entry }: { entry: AuditEntryDto }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const hasDetails = entry.before !== null || entry.after !== null;
  const target = useTargetText(entry);
  return (
    <Box data-testid="audit-row" data-action={entry.action} sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="audit-action">
            {t(`audit.actions.${entry.action}`)}
          </Typography>
          <Typography variant="body2" component="div" data-testid="audit-who">
            <Who entry={entry} />
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div">
            {formatDateTime(entry.at, 'dateTime')} · {entry.ip ?? '—'}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div" sx={{ wordBreak: 'break-word' }}>
            {t('audit.columns.target')}: {target}
          </Typography>
        </Box>
        {hasDetails && <ExpandButton open={open} onToggle={() => setOpen((o) => !o)} />}
      </Stack>
      {hasDetails && (
        <Collapse in={open} timeout="auto" unmountOnExit>
          <Box sx={{ pt: 1, overflowX: 'auto' }}>
            <Changes entry={entry} />
          </Box>
        </Collapse>
      )}
    </Box>
  );
}

function EntryRow({ entry }: { entry: AuditEntryDto }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const hasDetails = entry.before !== null || entry.after !== null;
  const target = useTargetText(entry);
  return (
    <Fragment>
      <TableRow hover data-testid="audit-row" data-action={entry.action} sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }}>
        <TableCell padding="checkbox">
          {hasDetails && <ExpandButton open={open} onToggle={() => setOpen((o) => !o)} />}
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at, 'dateTime')}</TableCell>
        <TableCell data-testid="audit-who"><Who entry={entry} /></TableCell>
        <TableCell sx={{ fontFamily: 'monospace', fontSize: 13 }}>{entry.ip ?? '—'}</TableCell>
        <TableCell data-testid="audit-action">{t(`audit.actions.${entry.action}`)}</TableCell>
        <TableCell sx={{ wordBreak: 'break-word' }}>{target}</TableCell>
      </TableRow>
      {hasDetails && (
        <TableRow>
          <TableCell colSpan={6} sx={{ py: 0, ...(open ? {} : { borderBottom: 'none' }) }}>
            <Collapse in={open} timeout="auto" unmountOnExit>
              <Box sx={{ py: 1.5, overflowX: 'auto' }}>
                <Changes entry={entry} />
              </Box>
            </Collapse>
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

/**
 * The audit log (issue 37 §2), admins only: who did what, when, from which address, before → after; filtered by
 * action, user and period (days of the browser's zone), 50 entries a page, newest first; CSV export.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const [action, setAction] = useState<AuditAction | ''>('');
  const [userId, setUserId] = useState<number | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [exporting, setExporting] = useState(false);
  const { data: users } = useColleagues();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));

  const periodValid = !from || !to || from <= to;
  const filters: AuditFilters = useMemo(
    () => ({
      action: action || undefined,
      userId: userId === '' ? undefined : userId,
      from: from ? dayStart(from) : undefined,
      to: to && periodValid ? dayStart(to, 1) : undefined,
    }),
    [action, userId, from, to, periodValid],
  );
  const { data, isLoading, isError, isFetching, refetch } = useAuditPage(filters, pageNumber);
  const filtered = action !== '' || userId !== '' || from !== '' || to !== '';

  // A new filter starts again at the first page.
  const change = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPageNumber(1);
  };

  const runExport = async () => {
    setExporting(true);
    try {
      await exportAuditCsv(filters);
      toastSuccess(t('audit.exported'));
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };

  const actionLabels = useMemo(
    () => AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.actions.${a}`) })).sort((x, y) => x.label.localeCompare(y.label)),
    [t],
  );

  return (
    <Page
      title={t('pages.audit')}
      actions={
        <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={() => void runExport()} disabled={exporting} data-testid="audit-export">
          {t('audit.export')}
        </Button>
      }
    >
      <Box data-testid="audit-page">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('audit.subtitle')}
        </Typography>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2, alignItems: { xs: 'stretch', md: 'center' } }} useFlexGap>
          <TextField
            select
            size="small"
            label={t('audit.filters.action')}
            value={action}
            onChange={(e) => change(setAction)(e.target.value as AuditAction | '')}
            sx={{ minWidth: 220 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-filter-action' } }}
          >
            <MenuItem value="">{t('audit.filters.allActions')}</MenuItem>
            {actionLabels.map((a) => (
              <MenuItem key={a.value} value={a.value}>
                {a.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('audit.filters.user')}
            value={userId}
            onChange={(e) => change(setUserId)(e.target.value === '' ? '' : Number(e.target.value))}
            sx={{ minWidth: 200 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-filter-user' } }}
          >
            <MenuItem value="">{t('audit.filters.allUsers')}</MenuItem>
            {(users ?? []).map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction="row" spacing={1}>
            <TextField
              type="date"
              size="small"
              label={t('audit.filters.from')}
              value={from}
              onChange={(e) => change(setFrom)(e.target.value)}
              error={!periodValid}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-filter-from', max: to || undefined } }}
              sx={{ flex: 1 }}
            />
            <TextField
              type="date"
              size="small"
              label={t('audit.filters.to')}
              value={to}
              onChange={(e) => change(setTo)(e.target.value)}
              error={!periodValid}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-filter-to', min: from || undefined } }}
              sx={{ flex: 1 }}
            />
          </Stack>
          {filtered && (
            <Button
              onClick={() => {
                setAction('');
                setUserId('');
                setFrom('');
                setTo('');
                setPageNumber(1);
              }}
            >
              {t('audit.filters.clear')}
            </Button>
          )}
        </Stack>
        {!periodValid && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {t('audit.filters.invalidPeriod')}
          </Alert>
        )}
        {isError && (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => void refetch()}>
                {t('audit.retry')}
              </Button>
            }
          >
            {t('audit.loadError')}
          </Alert>
        )}
        {isLoading ? (
          <Paper variant="outlined" sx={{ p: 2 }} data-testid="audit-loading">
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} height={40} />
            ))}
          </Paper>
        ) : data && data.entries.length === 0 && pageNumber === 1 ? (
          <EmptyState icon={<ManageSearchIcon fontSize="large" />} title={t('audit.empty')} text={t('audit.emptyText')} testId="audit-empty" />
        ) : data ? (
          <Paper variant="outlined" sx={{ opacity: isFetching ? 0.7 : 1 }}>
            {phone ? (
              <Box data-testid="audit-table">
                {data.entries.map((entry) => (
                  <EntryCard key={entry.id} entry={entry} />
                ))}
              </Box>
            ) : (
              <TableContainer sx={{ overflowX: 'auto' }}>
                <Table size="small" sx={{ minWidth: 760 }} data-testid="audit-table">
                  <TableHead>
                    <TableRow>
                      <TableCell padding="checkbox" />
                      <TableCell>{t('audit.columns.when')}</TableCell>
                      <TableCell>{t('audit.columns.who')}</TableCell>
                      <TableCell>{t('audit.columns.from')}</TableCell>
                      <TableCell>{t('audit.columns.action')}</TableCell>
                      <TableCell>{t('audit.columns.target')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.entries.map((entry) => (
                      <EntryRow key={entry.id} entry={entry} />
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
            <Stack direction="row" spacing={1} sx={{ p: 1, justifyContent: 'flex-end', alignItems: 'center' }}>
              <IconButton aria-label={t('audit.previous')} disabled={pageNumber === 1} onClick={() => setPageNumber((p) => Math.max(1, p - 1))} data-testid="audit-previous">
                <ChevronLeftIcon />
              </IconButton>
              <Typography variant="body2" data-testid="audit-page-number">
                {t('audit.page', { page: pageNumber })}
              </Typography>
              <IconButton aria-label={t('audit.next')} disabled={!data.hasMore} onClick={() => setPageNumber((p) => p + 1)} data-testid="audit-next">
                <ChevronRightIcon />
              </IconButton>
            </Stack>
          </Paper>
        ) : null}
      </Box>
    </Page>
  );
}
