import DownloadIcon from '@mui/icons-material/Download';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
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
import type { CampaignDto, CampaignStatus, RecipientStatus } from '@wadesk/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { isActiveJob } from '../../services/live-record';
import { toastError } from '../../services/toast-error';
import { campaignAction, downloadRecipientsCsv, useApplyCampaign, useRecipients } from './campaigns-api';
import { allFailed, JobProgress, JobStatusChip } from '../../components/job-progress';
import { formatDateTime } from '../../services/dates';

export const RECIPIENT_COLORS: Record<RecipientStatus, ChipProps['color']> = {
  pending: 'default',
  sending: 'info',
  sent: 'success',
  failed: 'error',
  invalid: 'warning',
  unknown: 'warning',
};

export const CAMPAIGN_COLORS: Record<CampaignStatus, ChipProps['color']> = {
  queued: 'default',
  running: 'info',
  paused: 'warning',
  done: 'success',
  cancelled: 'default',
};

function time(iso: string | null): string {
  return iso ? formatDateTime(iso, 'timeSeconds') : '';
}

/** One campaign under way or finished: progress, actions and each recipient's outcome. */
export function CampaignPanel({ campaign }: { campaign: CampaignDto }) {
  const { t } = useTranslation();
  const apply = useApplyCampaign();
  const recipients = useRecipients(campaign.id);
  const [busy, setBusy] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const act = async (action: 'pause' | 'resume' | 'cancel') => {
    setBusy(true);
    try {
      apply(await campaignAction(campaign.id, action));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
      setConfirmCancel(false);
    }
  };
  const active = isActiveJob(campaign);
  const next = active && campaign.nextSendAt && new Date(campaign.nextSendAt).getTime() > Date.now() ? t('campaigns.nextAt', { time: time(campaign.nextSendAt) }) : '';
  const caption = [
    t(`campaigns.status.${campaign.status}`),
    campaign.failed ? t('campaigns.failedCount', { count: campaign.failed }) : '',
    campaign.unknown ? t('campaigns.unknownCount', { count: campaign.unknown }) : '',
    campaign.invalid ? t('campaigns.invalidCount', { count: campaign.invalid }) : '',
    next,
  ]
    .filter(Boolean)
    .join(' · ');
  const rows = recipients.data?.pages.flatMap((p) => p.recipients) ?? [];

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="campaign-panel">
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('campaigns.campaignTitle', { id: campaign.id })}{' '}
            <JobStatusChip job={campaign} label={t(`campaigns.status.${campaign.status}`)} color={CAMPAIGN_COLORS[campaign.status]} testId="campaign-status" />
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            {active && (
              <Button size="small" startIcon={<PauseIcon />} onClick={() => void act('pause')} disabled={busy}>
                {t('campaigns.pause')}
              </Button>
            )}
            {campaign.status === 'paused' && (
              <Button size="small" startIcon={<PlayArrowIcon />} onClick={() => void act('resume')} disabled={busy}>
                {t('campaigns.resume')}
              </Button>
            )}
            {(active || campaign.status === 'paused') && (
              <Button size="small" color="error" startIcon={<StopIcon />} onClick={() => setConfirmCancel(true)} disabled={busy}>
                {t('campaigns.cancel')}
              </Button>
            )}
            <Button size="small" startIcon={<DownloadIcon />} onClick={() => downloadRecipientsCsv(campaign.id).catch(toastError)}>
              CSV
            </Button>
          </Stack>
        </Stack>
        <JobProgress done={campaign.sent} total={campaign.total} caption={caption} testId="campaign-progress" failed={allFailed(campaign)} />
        {campaign.lastError && <Alert severity={campaign.status === 'paused' ? 'warning' : 'info'}>{campaign.lastError}</Alert>}
        <TableContainer sx={{ maxHeight: 360 }}>
          <Table size="small" stickyHeader aria-label={t('campaigns.recipients')}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 56 }}>{t('campaigns.line')}</TableCell>
                <TableCell>{t('campaigns.number')}</TableCell>
                <TableCell>{t('campaigns.outcome')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('campaigns.sentAt')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody data-testid="campaign-recipients">
              {rows.map((r) => (
                <TableRow key={r.line} data-status={r.status}>
                  <TableCell>{r.line}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{r.number}</TableCell>
                  <TableCell>
                    <Chip size="small" label={t(`campaigns.recipientStatus.${r.status}`)} color={RECIPIENT_COLORS[r.status]} />
                    {r.error && (
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                        {r.error}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{time(r.sentAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {recipients.hasNextPage && (
          <Button onClick={() => void recipients.fetchNextPage()} disabled={recipients.isFetchingNextPage}>
            {t('common.loadMore')}
          </Button>
        )}
      </Stack>
      <ConfirmDialog
        open={confirmCancel}
        title={t('campaigns.cancelTitle')}
        text={t('campaigns.cancelText')}
        confirmLabel={t('campaigns.cancel')}
        dismissLabel={t('campaigns.keepSending')}
        busy={busy}
        onConfirm={() => void act('cancel')}
        onClose={() => setConfirmCancel(false)}
      />
    </Paper>
  );
}
