import type { MessageDto, MessageTemplate } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../services/api';
import { toastError } from '../../services/toast-error';
import { TemplatePicker } from './template-picker';

export interface TemplateDialogProps {
  ticketId: number;
  whatsappId: number;
  /** Opened because a free-form message was refused (outside the 24-hour window). */
  windowClosed: boolean;
  onClose: () => void;
  onSent: (message: MessageDto) => void;
}

/**
 * Sends an approved WhatsApp template on a Cloud API connection (issue 18): the only message allowed outside the
 * 24-hour customer-service window. Lists the templates from the Graph API; the attendant fills in its variables.
 */
export function TemplateDialog({ ticketId, whatsappId, windowClosed, onClose, onSent }: TemplateDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [template, setTemplate] = useState<MessageTemplate | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!template || sending) return;
    setSending(true);
    try {
      const { data: message } = await api.post<MessageDto>(`/messages/${ticketId}/template`, template);
      onSent(message);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth data-testid="template-dialog">
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id={titleId}>{t('chat.template.title')}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <TemplatePicker
              whatsappId={whatsappId}
              onChange={setTemplate}
              autoFocus
              notice={windowClosed ? { severity: 'warning', text: t('chat.template.windowClosed') } : { severity: 'info', text: t('chat.template.help') }}
            />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!template || sending} data-testid="template-send">
            {sending ? <CircularProgress size={20} /> : t('chat.template.send')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
