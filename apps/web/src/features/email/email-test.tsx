import { isEmailAddress } from '@wadesk/contracts';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/error-text';
import { errorMessage, toastSuccess, type ShownError } from '../../services/toast-error';
import { sendTestEmail } from './email-api';

/** "Send a test e-mail" under the e-mail settings: says the SMTP server's answer, success or its error. */
export function EmailTestSection() {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; shown: ShownError } | null>(null);
  const invalid = to.trim() !== '' && !isEmailAddress(to.trim());

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || invalid) return;
    setBusy(true);
    setResult(null);
    try {
      const sent = await sendTestEmail(to.trim() || undefined);
      const text = t('settings.emailTest.sent', { to: sent.to });
      setResult({ ok: true, shown: { text } });
      toastSuccess(text);
    } catch (err) {
      setResult({ ok: false, shown: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" onSubmit={(e) => void submit(e)} spacing={1} sx={{ mt: 2 }} data-testid="email-test">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label={t('settings.emailTest.to')}
          type="email"
          size="small"
          fullWidth
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={invalid}
          helperText={invalid ? t('chat.emailDialog.invalid') : t('settings.emailTest.help')}
        />
        <Button
          type="submit"
          variant="outlined"
          startIcon={busy ? <CircularProgress size={16} /> : <SendIcon />}
          disabled={busy || invalid}
          sx={{ flexShrink: 0, mt: { sm: '2px' } }}
        >
          {t('settings.emailTest.button')}
        </Button>
      </Stack>
      {result && (
        <Typography role={result.ok ? 'status' : 'alert'} variant="body2" color={result.ok ? 'success.main' : 'error'} data-testid="email-test-result">
          <ErrorText error={result.shown} />
        </Typography>
      )}
    </Stack>
  );
}
