import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../tickets/format';
import { formatDateTime } from '../../services/dates';
import { useCancelSchedule } from './cancel-schedule';
import { useSchedules, useSchedulesLiveUpdates } from './schedules-api';

/** The contact drawer's list of the contact's messages still waiting to be sent (the caller's own; every one for admins). */
export function ContactSchedules({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  useSchedulesLiveUpdates();
  const list = useSchedules({ contactId, status: 'scheduled' });
  const schedules = list.data?.pages.flatMap((p) => p.schedules) ?? [];
  const cancel = useCancelSchedule();

  return (
    <Stack spacing={1} data-testid="contact-schedules">
      <Typography variant="subtitle2">{t('schedules.contactTitle')}</Typography>
      {list.isLoading && <CircularProgress size={20} aria-label={t('common.loading')} />}
      {list.isError && (
        <Typography variant="body2" color="error">
          {t('schedules.loadError')}
        </Typography>
      )}
      {!list.isLoading && !list.isError && schedules.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('schedules.contactEmpty')}
        </Typography>
      )}
      {schedules.map((s) => (
        <Paper key={s.id} variant="outlined" sx={{ p: 1, display: 'flex', gap: 1, alignItems: 'flex-start' }} data-testid="contact-schedule">
          <Stack sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(s.sendAt, 'dateTime')}
            </Typography>
            <Typography variant="body2" sx={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
              {s.template ? t('schedules.templateLabel', { name: s.template.name, language: s.template.language }) : s.body ? renderMarkdown(s.body) : s.mediaUrl}
            </Typography>
          </Stack>
          <IconButton size="small" aria-label={t('schedules.cancel')} onClick={() => cancel.ask(s)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Paper>
      ))}
      {cancel.dialog}
    </Stack>
  );
}
