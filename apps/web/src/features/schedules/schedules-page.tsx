import { isAdmin, SCHEDULE_STATUSES, type ScheduleDto, type ScheduleStatus } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CancelScheduleSendIcon from '@mui/icons-material/CancelScheduleSend';
import EditIcon from '@mui/icons-material/Edit';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { useAuth } from '../auth/auth-context';
import { ScheduleDialog } from './schedule-dialog';
import { ScheduleStatusChip } from './schedule-status';
import { renderMarkdown } from '../tickets/format';
import { formatDateTime } from '../../services/dates';
import { useCancelSchedule } from './cancel-schedule';
import { SCHEDULES_KEY, useSchedules, useSchedulesLiveUpdates } from './schedules-api';
import { SendDayPanel } from './send-day-panel';

/** Columns a phone's width leaves out (their content moves into another cell). */
const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * /ZDGAgendamento (§2 "Scheduled messages page", issue 14): the scheduled messages with filters and a form to schedule
 * one; for admins, the manual send of a day (DISPARAR). Times are shown and entered in the browser's time zone.
 */
export function SchedulesPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  useSchedulesLiveUpdates();
  const [status, setStatus] = useState<ScheduleStatus | ''>('scheduled');
  const [date, setDate] = useState('');
  const list = useSchedules({ status: status || undefined, date: date || undefined });
  const schedules = list.data?.pages.flatMap((p) => p.schedules) ?? [];
  const [editing, setEditing] = useState<ScheduleDto | 'new' | null>(null);
  const cancel = useCancelSchedule();

  const refresh = () => void queryClient.invalidateQueries({ queryKey: [...SCHEDULES_KEY, 'list'] });

  return (
    <Page
      title={t('pages.scheduled')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="schedule-new">
          {t('schedules.new')}
        </Button>
      }
    >
      <Stack spacing={2}>
        {isAdmin(user) && <SendDayPanel />}
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
            <TextField
              select
              label={t('schedules.filters.status')}
              value={status}
              onChange={(e) => setStatus(e.target.value as ScheduleStatus | '')}
              sx={{ minWidth: 180 }}
              slotProps={{ htmlInput: { 'data-testid': 'schedules-status-filter' } }}
            >
              <MenuItem value="">{t('schedules.filters.all')}</MenuItem>
              {SCHEDULE_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`schedules.status.${s}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              type="date"
              label={t('schedules.filters.date')}
              value={date}
              onChange={(e) => setDate(e.target.value)}
              helperText={t('schedules.fire.dateHelp')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Stack>
          {list.isLoading ? (
            <Stack sx={{ alignItems: 'center', py: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Stack>
          ) : list.isError ? (
            <Stack spacing={1} sx={{ alignItems: 'center', py: 4 }}>
              <Typography color="error">{t('schedules.loadError')}</Typography>
              <Button onClick={() => void list.refetch()}>{t('schedules.retry')}</Button>
            </Stack>
          ) : schedules.length === 0 ? (
            <EmptyState title={t('schedules.empty')} text={t('schedules.emptyText')} testId="schedules-empty" />
          ) : (
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={t('pages.scheduled')} data-testid="schedules-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('schedules.columns.sendAt')}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t('schedules.columns.to')}</TableCell>
                    <TableCell>{t('schedules.columns.message')}</TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('campaigns.fields.connection')}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{t('schedules.columns.status')}</TableCell>
                    <TableCell align="right">{t('common.actions')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {schedules.map((s) => (
                    <TableRow key={s.id} data-testid="schedule-row">
                      <TableCell>
                        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }} data-testid="schedule-send-at-cell">
                          {formatDateTime(s.sendAt, 'dateTime')}
                        </Typography>
                        <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' }, wordBreak: 'break-word' }}>
                          {s.contactName ?? s.number}
                        </Typography>
                      </TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>
                        <Typography variant="body2">{s.contactName ?? s.number}</Typography>
                        {s.contactName && (
                          <Typography variant="caption" color="text.secondary">
                            {s.number}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={{ maxWidth: 320, minWidth: 120 }}>
                        <Typography variant="body2" sx={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }} data-testid="schedule-body-cell">
                          {s.template ? t('schedules.templateLabel', { name: s.template.name, language: s.template.language }) : renderMarkdown(s.body)}
                        </Typography>
                        {s.mediaUrl && (
                          <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                            {s.mediaUrl}
                          </Typography>
                        )}
                        <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
                          <ScheduleStatusChip schedule={s} testId="schedule-status-phone" />
                        </Box>
                      </TableCell>
                      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{s.whatsappName}</TableCell>
                      <TableCell sx={HIDE_ON_PHONE}>
                        <ScheduleStatusChip schedule={s} />
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: { xs: 0.5, sm: 2 } }}>
                        {s.status === 'scheduled' && (
                          <>
                            <Tooltip title={t('schedules.edit')}>
                              <IconButton size="small" aria-label={t('schedules.edit')} onClick={() => setEditing(s)}>
                                <EditIcon fontSize="small" />
                              </IconButton>
                            </Tooltip>
                            <Tooltip title={t('schedules.cancel')}>
                              <IconButton size="small" aria-label={t('schedules.cancel')} onClick={() => cancel.ask(s)}>
                                <CancelScheduleSendIcon fontSize="small" />
                              </IconButton>
                            </Tooltip>
                          </>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {list.hasNextPage && (
            <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} sx={{ mt: 1 }}>
              {t('common.loadMore')}
            </Button>
          )}
        </Paper>
      </Stack>
      {editing && (
        <ScheduleDialog schedule={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} onSaved={refresh} />
      )}
      {cancel.dialog}
    </Page>
  );
}
