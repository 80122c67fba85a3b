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

/**
 * The ticket header's label control (issue 36 §2): a button that opens a multi-select of every label; each change
 * is saved at once (PUT /api/tickets/:id with labelIds) and shown in the lists and the header.
 */
export function TicketLabelsButton({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [saving, setSaving] = useState(false);
  const [value, setValue] = useState<number[]>(ticket.labels.map((l) => l.id));

  const open = (el: HTMLElement) => {
    setValue(ticket.labels.map((l) => l.id));
    setAnchor(el);
  };

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
      <IconButton aria-label={t('labels.edit')} onClick={(e) => open(e.currentTarget)} data-testid="ticket-labels-button">
        <NewLabelIcon />
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
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
