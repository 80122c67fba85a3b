import { parseRecipients, VOICE_LANGUAGES, type OutreachChannel, type OutreachDto } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { ErrorText } from '../../components/error-text';
import { errorMessage, toastError, type ShownError } from '../../services/toast-error';
import { cancelOutreach, startOutreach, useOutreachDetail, useOutreachList, useOutreachLiveUpdates } from './outreach-api';
import { JobStatusChip } from '../../components/job-progress';
import { formatDateTime } from '../../services/dates';

const TITLE: Record<OutreachChannel, string> = { sms: 'pages.sms', voice: 'pages.voiceCall', instagram: 'pages.instaDirect' };

/** The text-to-speech language matching the interface's language. */
function voiceLanguageOf(lang: string): (typeof VOICE_LANGUAGES)[number] {
  if (lang.startsWith('en')) return 'en-US';
  if (lang.startsWith('es')) return 'es-ES';
  return 'pt-BR';
}

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
  const { t, i18n } = useTranslation();
  useOutreachLiveUpdates();
  const [recipients, setRecipients] = useState('');
  const [from, setFrom] = useState('');
  const [text, setText] = useState('');
  // The interface's language (followed when it changes) until one is picked here (issue 33 item 17).
  const [chosenLanguage, setLanguage] = useState<(typeof VOICE_LANGUAGES)[number] | null>(null);
  const language = chosenLanguage ?? voiceLanguageOf(i18n.resolvedLanguage ?? i18n.language);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const parsed = parseRecipients(channel, recipients);
  const needsFrom = channel !== 'instagram';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { batch } = await startOutreach({
        channel,
        recipients,
        text,
        ...(needsFrom ? { from } : {}),
        ...(channel === 'voice' ? { language } : {}),
      });
      setCurrent(batch.id);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t(TITLE[channel])}>
      <Stack spacing={2} data-testid={`outreach-${channel}`}>
        <Alert severity="info">{t(`outreach.about.${channel}`)}</Alert>
        <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={(e: FormEvent) => void submit(e)}>
          <Stack spacing={2}>
            {needsFrom && (
              <TextField label={t('outreach.from')} value={from} onChange={(e) => setFrom(e.target.value)} size="small" required helperText={t('outreach.fromHelp')} />
            )}
            <TextField
              label={t(channel === 'instagram' ? 'outreach.recipientsIg' : 'outreach.recipients')}
              value={recipients}
              onChange={(e) => setRecipients(e.target.value)}
              multiline
              minRows={3}
              required
              error={parsed.invalid.length > 0}
              helperText={
                parsed.invalid.length > 0
                  ? t('outreach.invalidLines', { lines: parsed.invalid.join(', ') })
                  : t('outreach.recipientCount', { count: parsed.recipients.length })
              }
              slotProps={{ htmlInput: { 'data-testid': 'outreach-recipients' } }}
            />
            <TextField
              label={t(channel === 'voice' ? 'outreach.speech' : 'outreach.message')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              multiline
              minRows={2}
              required
              slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'outreach-text' } }}
            />
            {channel === 'voice' && (
              <FormControl size="small" sx={{ maxWidth: 260 }}>
                <InputLabel id="outreach-language">{t('outreach.language')}</InputLabel>
                <Select labelId="outreach-language" label={t('outreach.language')} value={language} onChange={(e) => setLanguage(e.target.value as typeof language)}>
                  {VOICE_LANGUAGES.map((l) => (
                    <MenuItem key={l} value={l}>
                      {t(`outreach.languages.${l}`)}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
            )}
            {error && (
              <Alert severity="error" data-testid="outreach-error">
                <ErrorText error={error} />
              </Alert>
            )}
            <Box>
              <Button
                type="submit"
                variant="contained"
                startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
                disabled={busy || parsed.recipients.length === 0 || parsed.invalid.length > 0 || !text.trim() || (needsFrom && !from.trim())}
                data-testid="outreach-send"
              >
                {t(channel === 'voice' ? 'outreach.call' : 'outreach.send')}
              </Button>
            </Box>
          </Stack>
        </Paper>
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
