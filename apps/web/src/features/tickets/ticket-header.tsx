import { can, type TicketDto } from '@wadesk/contracts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ImportExportIcon from '@mui/icons-material/ImportExport';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableNavigate } from '../../app/stable-navigate';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { MessageDialog } from '../../components/message-dialog';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { deleteTicket, resolveWithProtocol, updateTicket, type TicketChange } from './tickets-api';
import { followTicket } from './follow-ticket';
import { applyTicketChange } from './tickets-live';
import { LabelChips } from '../labels/label-chips';
import { OutOfHoursBadge } from '../business-hours/out-of-hours-badge';
import { CsatRating } from '../csat/csat-rating';
import { TicketLabelsButton, TicketLabelsEditor } from './ticket-labels';
import { TransferTicketModal } from './transfer-ticket-modal';
import { useOpenedOnce } from './use-opened-once';
import { useElementWidth } from '../../hooks/use-element-width';

export interface TicketHeaderProps {
  ticket: TicketDto;
  onOpenContact: () => void;
  onToggleTools: () => void;
  /** Called before this screen deletes the ticket itself (so the live delete is not announced twice). */
  onDeleting: () => void;
}

/**
 * From which width of the header an action is a button; narrower, it sits in the menu. The header's own width,
 * not the screen's: the chat is narrower with the ticket list or the contact panel beside it (issue 33 item 1),
 * and the header stays one row.
 */
const SECONDARY_FROM = 640;
const TERTIARY_FROM = 780;

type Action = {
  key: string;
  label: string;
  run: () => void;
  color?: 'primary' | 'error' | 'inherit' | 'success' | 'warning';
  variant?: 'contained' | 'outlined' | 'text';
  /** The header width (px) from which it is a button; always one when absent. */
  from?: number;
};

/** The ticket header (§2): back, contact name with #id, 'Assigned to', the actions of its status. */
export const TicketHeader = memo(function TicketHeader({ ticket, onOpenContact, onToggleTools, onDeleting }: TicketHeaderProps) {
  const { t } = useTranslation();
  const navigate = useStableNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [headerRef, headerWidth] = useElementWidth<HTMLDivElement>();
  const isButton = (a: Action) => a.from === undefined || headerWidth >= a.from;
  const [transfer, setTransfer] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [labelsAnchor, setLabelsAnchor] = useState<HTMLElement | null>(null);
  const labelsButton = headerWidth >= SECONDARY_FROM;

  const [protocolNumber, setProtocolNumber] = useState<string | null>(null);
  // The menu and dialogs mount when first opened, not with every chat.
  const menuMounted = useOpenedOnce(!!menu);
  const transferMounted = useOpenedOnce(transfer);
  const protocolMounted = useOpenedOnce(protocolNumber !== null);
  const deleteMounted = useOpenedOnce(confirmDelete);

  /** Runs a status change; `done` is the short confirmation toast. Taking a ticket follows it to Working on. */
  const change = async (body: TicketChange, leave: boolean, done: string) => {
    setBusy(true);
    try {
      const updated = await updateTicket(ticket.id, body);
      applyTicketChange(queryClient, user, { type: 'update', ticket: updated });
      toastSuccess(done);
      if (leave) navigate('/tickets');
      else if (updated.status === 'open') navigate(`/tickets/${updated.id}`, { replace: true, state: followTicket(updated) });
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const protocol = async () => {
    setBusy(true);
    try {
      const result = await resolveWithProtocol(ticket.id);
      applyTicketChange(queryClient, user, { type: 'update', ticket: result.ticket });
      setProtocolNumber(result.protocol);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    onDeleting();
    try {
      await deleteTicket(ticket.id);
      applyTicketChange(queryClient, user, { type: 'delete', ticketId: ticket.id });
      toastSuccess(t('tickets.header.deleted'));
      navigate('/tickets');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
      setConfirmDelete(false);
    }
  };

  const actions: Action[] = [];
  if (ticket.status === 'pending') {
    actions.push({ key: 'accept', label: t('tickets.actions.accept'), run: () => void change({ status: 'open' }, false, t('tickets.done.accepted')), variant: 'contained', color: 'primary' });
  } else if (ticket.status === 'open') {
    actions.push({ key: 'return', label: t('tickets.actions.return'), run: () => void change({ status: 'pending' }, true, t('tickets.done.returned')), variant: 'outlined', color: 'inherit', from: SECONDARY_FROM });
    actions.push({ key: 'resolve', label: t('tickets.actions.resolve'), run: () => void change({ status: 'closed' }, true, t('tickets.done.resolved')), variant: 'contained', color: 'primary' });
    actions.push({ key: 'protocol', label: t('tickets.actions.protocol'), run: () => void protocol(), variant: 'outlined', color: 'primary', from: TERTIARY_FROM });
    actions.push({ key: 'transfer', label: t('tickets.actions.transfer'), run: () => setTransfer(true), variant: 'outlined', color: 'inherit', from: SECONDARY_FROM });
  } else {
    actions.push({ key: 'reopen', label: t('tickets.actions.reopen'), run: () => void change({ status: 'open' }, false, t('tickets.done.reopened')), variant: 'contained', color: 'primary' });
  }
  const more: Action[] = [];
  // Narrow headers: the label picker is in the menu, opened under the header.
  if (!labelsButton) more.push({ key: 'labels', label: t('labels.edit'), run: () => setLabelsAnchor(headerRef.current) });
  if (can(user?.profile, 'ticket-options:deleteTicket')) more.push({ key: 'delete', label: t('tickets.actions.delete'), run: () => setConfirmDelete(true), color: 'error' });

  return (
    <Paper ref={headerRef} square elevation={0} sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.5, minHeight: 64, borderBottom: 1, borderColor: 'divider', flexWrap: 'nowrap' }} data-testid="ticket-header">
      <IconButton aria-label={t('tickets.header.back')} onClick={() => navigate('/tickets')}>
        <ArrowBackIcon />
      </IconButton>
      <ButtonBase onClick={onOpenContact} sx={{ display: 'flex', gap: 1, alignItems: 'center', flex: 1, minWidth: 0, justifyContent: 'flex-start', textAlign: 'left', borderRadius: 1, py: 0.5 }} aria-label={t('tickets.header.contactInfo')}>
        <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
          {ticket.contact.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap sx={{ fontWeight: 600 }} data-testid="ticket-title">
            {ticket.contact.name} #{ticket.id}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <Typography noWrap variant="caption" color="text.secondary" component="div" sx={{ minWidth: 0, flexShrink: 1 }}>
              {ticket.user ? t('tickets.header.assignedTo', { name: ticket.user.name }) : t('tickets.header.unassigned')}
            </Typography>
            <OutOfHoursBadge show={ticket.arrivedOutOfHours} />
            <CsatRating csat={ticket.csat} testId="ticket-header-csat" />
            <Box sx={{ display: 'flex', minWidth: 0, maxWidth: '60%', flexShrink: 0 }}>
              <LabelChips labels={ticket.labels} testId="ticket-header-labels" />
            </Box>
          </Box>
        </Box>
      </ButtonBase>
      <Box sx={{ display: 'flex', gap: { xs: 0, sm: 1 }, alignItems: 'center', flexShrink: 0 }}>
        {actions.filter(isButton).map((a) => (
          <Button
            key={a.key}
            size="small"
            disabled={busy}
            variant={a.variant}
            color={a.color}
            onClick={a.run}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {a.label}
          </Button>
        ))}
        {labelsButton && <TicketLabelsButton onOpen={setLabelsAnchor} />}
        <IconButton aria-label={t('tickets.header.tools')} onClick={onToggleTools}>
          <ImportExportIcon />
        </IconButton>
        <IconButton aria-label={t('tickets.header.more')} onClick={(e) => setMenu(e.currentTarget)} disabled={busy}>
          <MoreVertIcon />
        </IconButton>
      </Box>
      {menuMounted && (
        <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
          {actions.filter((a) => !isButton(a)).map((a) => (
            <MenuItem key={a.key} onClick={() => { setMenu(null); a.run(); }}>
              {a.label}
            </MenuItem>
          ))}
          {more.map((a) => (
            <MenuItem key={a.key} sx={a.color === 'error' ? { color: 'error.main' } : undefined} onClick={() => { setMenu(null); a.run(); }}>
              {a.label}
            </MenuItem>
          ))}
        </Menu>
      )}
      <TicketLabelsEditor key={ticket.id} ticket={ticket} anchor={labelsAnchor} onClose={() => setLabelsAnchor(null)} />
      {transferMounted && (
        <TransferTicketModal ticket={ticket} open={transfer} onClose={() => setTransfer(false)} onDone={() => {
            toastSuccess(t('tickets.done.transferred'));
            navigate('/tickets');
          }}
        />
      )}
      {protocolMounted && (
        <MessageDialog
          open={protocolNumber !== null}
          title={t('tickets.header.protocolTitle')}
          onClose={() => {
            setProtocolNumber(null);
            navigate('/tickets');
          }}
          testId="protocol-dialog"
        >
          {t('tickets.header.protocolAlert', { protocol: protocolNumber ?? '' })}
        </MessageDialog>
      )}
      {deleteMounted && (
        <ConfirmDialog
          open={confirmDelete}
          title={t('tickets.header.deleteTitle', { id: ticket.id })}
          text={t('tickets.header.deleteText')}
          confirmLabel={t('common.delete')}
          busy={busy}
          onConfirm={() => void remove()}
          onClose={() => setConfirmDelete(false)}
        />
      )}
    </Paper>
  );
});
