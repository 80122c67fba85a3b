import type { MessageDto, TicketDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../tickets/format';

function csvCell(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** The loaded conversation as CSV (date, time, sender, message). */
export function chatCsv(ticket: TicketDto, messages: MessageDto[], me: string): string {
  const rows = [['date', 'time', 'from', 'message'].map(csvCell).join(',')];
  for (const m of messages) {
    const from = m.fromMe ? me : (m.participantName ?? m.contact?.name ?? ticket.contact.name);
    const body = m.isDeleted ? '' : m.body || (m.mediaType ? `[${m.mediaType}]` : '');
    rows.push([formatDate(m.createdAt), formatTime(m.createdAt), from, body].map(csvCell).join(','));
  }
  return `${rows.join('\r\n')}\r\n`;
}

/**
 * The expandable import/export panel (§2): WPP id, import, CSV, EMAIL. Only CSV works today: WPP id arrives with
 * the bulk-send issue, import with the history import, EMAIL with the e-mail one; each button is added here as
 * its issue lands, never shown before it does anything.
 */
export function ImportExportPanel({ open, ticket, messages, me }: { open: boolean; ticket: TicketDto; messages: MessageDto[]; me: string }) {
  const { t } = useTranslation();
  const downloadCsv = () => {
    const blob = new Blob([`\uFEFF${chatCsv(ticket, messages, me)}`], { type: 'text/csv;charset=utf-8' });
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
        <Button size="small" variant="outlined" onClick={downloadCsv}>
          {t('chat.tools.csv')}
        </Button>
      </Box>
    </Collapse>
  );
}
