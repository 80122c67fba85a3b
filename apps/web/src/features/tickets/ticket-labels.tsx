import type { TicketDto } from '@wadesk/contracts';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import NewLabelIcon from '@mui/icons-material/NewLabel';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { LabelSelect } from '../labels/label-select';
import { updateTicket } from './tickets-api';
import { applyTicketChange } from './tickets-live';

/** The header's button that opens the label picker (wide headers; narrow ones offer it in their menu). */
export function TicketLabelsButton({ onOpen }: { onOpen: (anchor: HTMLElement) => void }) {
  const { t } = useTranslation();
  return (
    <IconButton aria-label={t('labels.edit')} onClick={(e) => onOpen(e.currentTarget)} data-testid="ticket-labels-button">
      <NewLabelIcon />
    </IconButton>
  );
}

/**
 * The ticket header's label picker (issue 36 §2), open while `anchor` is set: a multi-select of every label; each
 * change is saved at once (PUT /api/tickets/:id with labelIds) and shown in the lists and the header.
 */
export function TicketLabelsEditor({ ticket, anchor, onClose }: { ticket: TicketDto; anchor: HTMLElement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [saving, setSaving] = useState(false);
  const [value, setValue] = useState<number[]>(ticket.labels.map((l) => l.id));
  // Opened again: start from the ticket's labels as they are now.
  const [openedFor, setOpenedFor] = useState<HTMLElement | null>(null);
  if (anchor !== openedFor) {
    setOpenedFor(anchor);
    if (anchor) setValue(ticket.labels.map((l) => l.id));
  }

  const change = async (ids: number[]) => {
    const before = value;
    setValue(ids);
    setSaving(true);
    try {
      const updated = await updateTicket(ticket.id, { labelIds: ids });
      applyTicketChange(queryClient, user, { type: 'update', ticket: updated });
    } catch (err) {
      setValue(before);
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={onClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 340, maxWidth: 'calc(100vw - 16px)', p: 2 } } }}
      >
        <Box data-testid="ticket-labels-editor">
          <Typography variant="subtitle2" gutterBottom>
            {t('labels.editTitle')}
          </Typography>
          <LabelSelect value={value} current={ticket.labels} onChange={(ids) => void change(ids)} openOnMount disabled={saving} testId="ticket-label-select" />
        </Box>
      </Popover>
    </>
  );
}
