import { isAdmin, type MessageDto, type TicketDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { useToolAccess } from '../settings/use-tool-access';
import { ChatHistoryImportDialog, ticketConnectionId } from '../history/chat-history-import';
import { EmailButton } from '../email/email-button';
import { chatCsv } from './chat-csv';

/**
 * The expandable import/export panel (§2): WPP id, import, CSV, EMAIL. WPP id shows the connection the ticket uses
 * (an admin asks /zdgGetWppId, the send API route admins may call; an attendant reads it from the ticket they see).
 * Import (this contact's history, issue 14) and EMAIL are the tools `history` and `email` of the setting
 * attendantTools (issue 32): shown to admins, and to attendants while the setting lists them.
 */
export function ImportExportPanel({ open, ticket, messages, me }: { open: boolean; ticket: TicketDto; messages: MessageDto[]; me: string }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const { may } = useToolAccess();
  const mayImport = may('history');
  const [shownConnection, setConnection] = useState<{ ticketId: number; whatsappId: number } | null>(null);
  const connection = shownConnection?.ticketId === ticket.id ? shownConnection.whatsappId : null;
  const [importing, setImporting] = useState(false);
  const showWppId = async () => {
    if (!admin) {
      setConnection({ ticketId: ticket.id, whatsappId: ticket.whatsappId });
      return;
    }
    try {
      setConnection({ ticketId: ticket.id, whatsappId: await ticketConnectionId(ticket.id) });
    } catch (err) {
      toastError(err);
    }
  };
  const downloadCsv = () => {
    const blob = new Blob([chatCsv(ticket, messages, me, t('chat.note.csvLabel'))], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `ticket-${ticket.id}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Collapse in={open} unmountOnExit>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', px: 2, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }} data-testid="import-export-panel">
        <Button size="small" variant="outlined" onClick={() => void showWppId()} data-testid="chat-wpp-id">
          {t('historyImport.wppId')}
        </Button>
        {mayImport && (
          <Button size="small" variant="outlined" onClick={() => setImporting(true)} data-testid="chat-history-import">
            {t('historyImport.importButton')}
          </Button>
        )}
        <Button size="small" variant="outlined" onClick={downloadCsv}>
          {t('chat.tools.csv')}
        </Button>
        {may('email') && <EmailButton ticket={ticket} />}
        {connection !== null && (
          <Typography variant="body2" role="status" sx={{ alignSelf: 'center' }} data-testid="chat-wpp-id-value">
            {t('historyImport.wppIdText', { id: connection, name: ticket.whatsapp?.id === connection ? ticket.whatsapp.name : '' })}
          </Typography>
        )}
      </Box>
      {mayImport && <ChatHistoryImportDialog ticket={ticket} open={importing} onClose={() => setImporting(false)} />}
    </Collapse>
  );
}
