import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { toastError, toastSuccess } from '../../services/toast-error';
import { toLocalDay } from './schedule-time';
import { fetchActiveInstance, sendScheduledDay } from './schedules-api';

/**
 * The manual send of §2 "Scheduled messages page": 'Data de Envio', the required 'ID de Disparo', a button that shows
 * the active instance ID, and DISPARAR, which sends now every message scheduled for that day on that instance
 * (`POST /api/sendAgendamento`, the send API). The day is counted in the server's time zone. Admins only (the send
 * API takes the API token or an admin's session).
 */
export function SendDayPanel() {
  const { t } = useTranslation();
  const [day, setDay] = useState(() => toLocalDay(new Date()));
  const [instance, setInstance] = useState('');
  const [active, setActive] = useState<{ id: number; name: string; status: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const showActive = async () => {
    try {
      const found = await fetchActiveInstance();
      setActive(found);
      if (!instance.trim()) setInstance(String(found.id));
    } catch (err) {
      toastError(err);
    }
  };

  const ask = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d+$/.test(instance.trim()) || Number(instance) < 1) {
      setError(instance.trim() ? t('schedules.fire.instanceInvalid') : t('schedules.fire.instanceRequired'));
      return;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      setError(t('schedules.fire.dateRequired'));
      return;
    }
    setError(null);
    setConfirming(true);
  };

  const fire = async () => {
    setBusy(true);
    try {
      const result = await sendScheduledDay(day, Number(instance));
      toastSuccess(t('schedules.fire.done', { count: result.count }));
      setConfirming(false);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Box component="form" noValidate onSubmit={ask} data-testid="send-day-form">
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('schedules.fire.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('schedules.fire.help')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            type="date"
            label={t('schedules.fire.date')}
            value={day}
            onChange={(e) => setDay(e.target.value)}
            required
            helperText={t('schedules.fire.dateHelp')}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'send-day-date' } }}
          />
          <TextField
            label={t('schedules.fire.instanceId')}
            value={instance}
            onChange={(e) => {
              setInstance(e.target.value);
              setError(null);
            }}
            required
            error={!!error}
            helperText={error ?? ' '}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'send-day-instance' } }}
          />
          <Button variant="outlined" onClick={() => void showActive()} sx={{ mt: { sm: 1 } }} data-testid="send-day-active">
            {active ? t('schedules.fire.activeId', { id: active.id }) : t('schedules.fire.showActive')}
          </Button>
          <Button type="submit" variant="contained" color="warning" sx={{ mt: { sm: 1 } }} data-testid="send-day-fire">
            {t('schedules.fire.submit')}
          </Button>
        </Stack>
        {active && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="send-day-active-info">
            {t('schedules.fire.activeInfo', { id: active.id, name: active.name, status: active.status })}
          </Alert>
        )}
      </Box>
      <ConfirmDialog
        open={confirming}
        title={t('schedules.fire.confirmTitle')}
        text={t('schedules.fire.confirmText', { day: day.split('-').reverse().join('/'), id: instance })}
        confirmLabel={t('schedules.fire.submit')}
        busy={busy}
        onConfirm={() => void fire()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}
