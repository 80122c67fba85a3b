import { isEmailAddress, type TicketDto } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ErrorText } from '../../components/error-text';
import { errorMessage, type ShownError } from '../../services/toast-error';
import { useSettings } from '../settings/settings-api';
import { emailTicket } from './email-api';

/**
 * The chat panel's EMAIL button (§2): the conversation's transcript by e-mail to the settings' emailTo or an
 * address typed in the dialog; the alert says it was sent (§8), or the SMTP server's reason it was not.
 */
export function EmailButton({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  /** Internal notes are the team's: left out unless the sender chooses (issue 36 §1). */
  const [includeNotes, setIncludeNotes] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const { data: settings } = useSettings();
  const defaultTo = settings?.find((s) => s.key === 'emailTo')?.value ?? '';
  const typed = to.trim();
  const invalid = typed !== '' && !isEmailAddress(typed);
  const canSend = !busy && !invalid && (typed !== '' || defaultTo !== '');

  const close = () => {
    if (busy) return;
    setOpen(false);
    setError(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSend) return;
    setBusy(true);
    setError(null);
    try {
      const sent = await emailTicket(ticket.id, typed || undefined, includeNotes);
      toast.info(t('chat.emailDialog.sent', { to: sent.to }));
      if (sent.omittedAttachments) toast.warn(t('chat.emailDialog.omitted', { count: sent.omittedAttachments }));
      setOpen(false);
      setTo('');
      setIncludeNotes(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" onClick={() => setOpen(true)} data-testid="chat-email">
        {t('chat.tools.email')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: (e: FormEvent) => void submit(e) } }}>
        <DialogTitle>{t('chat.emailDialog.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText variant="body2" sx={{ mb: 2 }}>
            {t('chat.emailDialog.text')}
          </DialogContentText>
          <TextField
            autoFocus
            label={t('chat.emailDialog.to')}
            type="email"
            size="small"
            fullWidth
            value={to}
            placeholder={defaultTo}
            onChange={(e) => setTo(e.target.value)}
            error={invalid}
            helperText={invalid ? t('chat.emailDialog.invalid') : defaultTo ? t('chat.emailDialog.toHelp', { to: defaultTo }) : t('chat.emailDialog.toHelpNone')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <FormControlLabel
            sx={{ mt: 1 }}
            control={<Checkbox size="small" checked={includeNotes} onChange={(e) => setIncludeNotes(e.target.checked)} data-testid="chat-email-include-notes" />}
            label={t('chat.emailDialog.includeNotes')}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="chat-email-error">
              <ErrorText error={error} />
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!canSend} startIcon={busy ? <CircularProgress size={16} /> : undefined}>
            {t('chat.emailDialog.send')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
