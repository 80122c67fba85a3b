import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import type { TicketDto } from '@wadesk/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../services/api';
import { useHistoryImport, useHistoryImportsLiveUpdates } from './history-api';
import { HistoryImportForm } from './history-import-form';
import { HistoryImportPanel } from './history-import-panel';

/** The connection a ticket uses, as the send API's `/zdgGetWppId` answers it. */
export async function ticketConnectionId(ticketId: number): Promise<number> {
  const { data } = await api.post<{ dbWpp: { whatsappId: number }[] }>('/zdgGetWppId', { ticketid: ticketId });
  const id = data.dbWpp[0]?.whatsappId;
  if (id === undefined) throw new Error('no connection');
  return id;
}

/**
 * The chat panel's import (§2): this ticket's contact's history on this ticket's connection, with its progress
 * and summary; the ticket's messages are read again when it ends.
 */
export function ChatHistoryImportDialog({ ticket, open, onClose }: { ticket: TicketDto; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const [importId, setImportId] = useState<number | null>(null);
  const current = useHistoryImport(importId);
  useHistoryImportsLiveUpdates((item) => {
    if (item.id === importId && item.status === 'done') void queryClient.invalidateQueries({ queryKey: ['messages', ticket.id] });
  });
  const close = () => {
    setImportId(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('historyImport.importTitleChat')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          <DialogContentText>{t('historyImport.importChatText', { name: ticket.contact.name || ticket.contact.number })}</DialogContentText>
          {current.data ? (
            <HistoryImportPanel item={current.data} />
          ) : (
            <HistoryImportForm whatsappId={ticket.whatsappId} contactNumber={ticket.contact.number} onStarted={(started) => setImportId(started.historyImport.id)} />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('historyImport.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
