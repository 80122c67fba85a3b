import type { OutreachChannel, OutreachDto } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { errorMessage, toastError } from '../../services/toast-error';
import { cancelOutreach, useOutreachDetail, useOutreachList, useOutreachLiveUpdates } from './outreach-api';
import { OutreachForm } from './outreach-form';
import { JobStatusChip } from '../../components/job-progress';
import { formatDateTime } from '../../services/dates';

const TITLE: Record<OutreachChannel, string> = { sms: 'pages.sms', voice: 'pages.voiceCall', instagram: 'pages.instaDirect' };

function BatchPanel({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, isLoading, error } = useOutreachDetail(id);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (isLoading) return <CircularProgress aria-label={t('common.loading')} />;
  if (error || !data) return <Alert severity="error">{errorMessage(error).text}</Alert>;
  const { batch, items } = data;
  const finished = batch.done + batch.failed + batch.unknown;
  const active = batch.status === 'queued' || batch.status === 'running';
  const cancel = async () => {
    setBusy(true);
    try {
      await cancelOutreach(batch.id);
      setConfirming(false);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="outreach-batch">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('outreach.batch', { id: batch.id })}
        </Typography>
        <JobStatusChip job={batch} label={t(`outreach.status.${batch.status}`)} testId="outreach-status" color={active ? 'primary' : 'default'} />
        <Typography variant="body2" data-testid="outreach-progress">
          {finished} / {batch.total}
        </Typography>
        <Box sx={{ flex: 1 }} />
        {active && (
          <Button size="small" color="warning" onClick={() => setConfirming(true)}>
            {t('outreach.cancel')}
          </Button>
        )}
      </Stack>
      <LinearProgress variant="determinate" value={batch.total ? (finished / batch.total) * 100 : 0} aria-label={t('outreach.progress')} sx={{ mb: 1 }} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('outreach.counts', { sent: batch.done, failed: batch.failed, unknown: batch.unknown })}
      </Typography>
      <TableContainer>
        <Table size="small" data-testid="outreach-items">
          <TableHead>
            <TableRow>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>#</TableCell>
              <TableCell>{t('outreach.recipient')}</TableCell>
              <TableCell>{t('outreach.outcome')}</TableCell>
              <TableCell>{t('outreach.detail')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.line}>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{item.line}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{item.recipient}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="outlined"
                    label={t(`outreach.itemStatus.${item.status}`)}
                    color={item.status === 'sent' ? 'success' : item.status === 'failed' ? 'error' : item.status === 'unknown' ? 'warning' : 'default'}
                  />
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-word', color: item.error ? 'error.main' : undefined }}>{item.error ?? item.providerId ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ConfirmDialog
        open={confirming}
        title={t('outreach.cancelTitle')}
        text={t('outreach.cancelText')}
        confirmLabel={t('outreach.cancel')}
        dismissLabel={t('campaigns.keepSending')}
        busy={busy}
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

function History({ channel, selected, onSelect }: { channel: OutreachChannel; selected: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const { data, isLoading, error } = useOutreachList(channel);
  if (isLoading) return <CircularProgress aria-label={t('common.loading')} />;
  if (error) return <Alert severity="error">{errorMessage(error).text}</Alert>;
  const batches: OutreachDto[] = data?.batches ?? [];
  if (batches.length === 0) return <Typography color="text.secondary">{t('outreach.empty')}</Typography>;
  return (
    <TableContainer>
      <Table size="small" data-testid="outreach-history">
        <TableHead>
          <TableRow>
            <TableCell>{t('outreach.when')}</TableCell>
            <TableCell>{t('outreach.message')}</TableCell>
            <TableCell>{t('outreach.outcome')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {batches.map((b) => (
            <TableRow key={b.id} hover selected={b.id === selected} onClick={() => onSelect(b.id)} sx={{ cursor: 'pointer' }}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Button size="small" onClick={() => onSelect(b.id)} sx={{ minWidth: 0, p: 0 }}>
                  {formatDateTime(b.createdAt, 'dateTime')}
                </Button>
              </TableCell>
              <TableCell sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{b.text}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <JobStatusChip job={b} label={t(`outreach.status.${b.status}`)} color="default" /> {b.done + b.failed + b.unknown} / {b.total}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** /SMS, /VoiceCall and /InstaDirect: a message to a list of recipients, sent one by one with the pause (§9). */
export function OutreachPage({ channel }: { channel: OutreachChannel }) {
  const { t } = useTranslation();
  useOutreachLiveUpdates();
  const [current, setCurrent] = useState<number | null>(null);

  return (
    <Page title={t(TITLE[channel])}>
      <Stack spacing={2} data-testid={`outreach-${channel}`}>
        <Alert severity="info">{t(`outreach.about.${channel}`)}</Alert>
        <OutreachForm key={channel} channel={channel} onStarted={setCurrent} />
        {current !== null && <BatchPanel id={current} />}
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {t('outreach.history')}
          </Typography>
          <History channel={channel} selected={current} onSelect={setCurrent} />
        </Paper>
      </Stack>
    </Page>
  );
}

export function SmsPage() {
  return <OutreachPage channel="sms" />;
}
export function VoiceCallPage() {
  return <OutreachPage channel="voice" />;
}
export function InstaDirectPage() {
  return <OutreachPage channel="instagram" />;
}
