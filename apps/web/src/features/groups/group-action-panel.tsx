import StopIcon from '@mui/icons-material/Stop';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { GroupActionDto, GroupActionStatus, GroupItemStatus } from '@wadesk/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { allFailed, JobProgress, JobStatusChip } from '../../components/job-progress';
import { isActiveJob } from '../../services/live-record';
import { toastError } from '../../services/toast-error';
import { formatDateTime } from '../../services/dates';
import { cancelGroupAction, useApplyGroupAction, useGroupActionItems } from './groups-api';

export const GROUP_ACTION_COLORS: Record<GroupActionStatus, ChipProps['color']> = {
  queued: 'default',
  running: 'info',
  done: 'success',
  cancelled: 'default',
};

const ITEM_COLORS: Record<GroupItemStatus, ChipProps['color']> = {
  pending: 'default',
  running: 'info',
  done: 'success',
  failed: 'error',
  unknown: 'warning',
};

function time(iso: string | null): string {
  return iso ? formatDateTime(iso, 'timeSeconds') : '';
}

/** One group action under way or finished: progress `done / total`, cancel, and each group's or participant's outcome. */
export function GroupActionPanel({ action }: { action: GroupActionDto }) {
  const { t } = useTranslation();
  const apply = useApplyGroupAction();
  const items = useGroupActionItems(action.id);
  const [busy, setBusy] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const active = isActiveJob(action);
  const cancel = async () => {
    setBusy(true);
    try {
      apply(await cancelGroupAction(action.id));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
      setConfirmCancel(false);
    }
  };
  const waiting = active && action.nextRunAt && new Date(action.nextRunAt).getTime() > Date.now();
  const caption = [
    t(`groups.status.${action.status}`),
    action.failed ? t('campaigns.failedCount', { count: action.failed }) : '',
    action.unknown ? t('campaigns.unknownCount', { count: action.unknown }) : '',
    action.skipped ? t('groups.skippedCount', { count: action.skipped }) : '',
    waiting ? t(action.status === 'queued' ? 'groups.startsAt' : 'campaigns.nextAt', { time: time(action.nextRunAt) }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const rows = items.data?.pages.flatMap((p) => p.items) ?? [];
  const perParticipant = action.kind === 'privateMessage';

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="group-action-panel">
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('groups.actionTitle', { id: action.id, action: t(`groups.tabs.${action.kind}`) })}{' '}
            <JobStatusChip job={action} label={t(`groups.status.${action.status}`)} color={GROUP_ACTION_COLORS[action.status]} testId="group-action-status" />
          </Typography>
          {active && (
            <Button size="small" color="error" startIcon={<StopIcon />} onClick={() => setConfirmCancel(true)} disabled={busy} data-testid="group-action-cancel">
              {t('groups.cancel')}
            </Button>
          )}
        </Stack>
        <JobProgress done={action.done} total={action.total} caption={caption} testId="group-action-progress" failed={allFailed(action)} />
        {action.lastError && <Alert severity="info">{action.lastError}</Alert>}
        {rows.length > 0 && (
          <TableContainer sx={{ maxHeight: 360 }}>
            <Table size="small" stickyHeader aria-label={t('groups.outcomes')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t(perParticipant ? 'groups.participant' : 'groups.group')}</TableCell>
                  <TableCell>{t('campaigns.outcome')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('groups.finishedAt')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody data-testid="group-action-items">
                {rows.map((item) => (
                  <TableRow key={item.line} data-status={item.status}>
                    <TableCell sx={{ wordBreak: 'break-word' }}>
                      {perParticipant ? item.target : (item.label ?? item.target)}
                      {perParticipant && item.label && (
                        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                          {item.label}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      <Chip size="small" label={t(`groups.itemStatus.${item.status}`)} color={ITEM_COLORS[item.status]} />
                      {item.error && (
                        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                          {item.error}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{time(item.finishedAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {items.hasNextPage && (
          <Button onClick={() => void items.fetchNextPage()} disabled={items.isFetchingNextPage}>
            {t('common.loadMore')}
          </Button>
        )}
      </Stack>
      <ConfirmDialog
        open={confirmCancel}
        title={t('groups.cancelTitle')}
        text={t('groups.cancelText')}
        confirmLabel={t('groups.cancel')}
        dismissLabel={t('groups.keepRunning')}
        busy={busy}
        onConfirm={() => void cancel()}
        onClose={() => setConfirmCancel(false)}
      />
    </Paper>
  );
}
