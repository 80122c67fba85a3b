import type { TicketDto } from '@wadesk/contracts';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { OutOfHoursBadge } from '../business-hours/out-of-hours-badge';
import { LabelChips } from '../labels/label-chips';
import { ChannelIcon } from './channel-icon';
import { formatRowTime } from '../../services/dates';
import { renderLastMessage, renderSearchMatch } from './format';

export const TICKET_ROW_HEIGHT = 84;
const NO_QUEUE_COLOR = '#7C7C7C';
const TAG_SX = {
  display: 'inline-block',
  px: 0.75,
  borderRadius: 2,
  fontSize: 11,
  lineHeight: '16px',
  bgcolor: 'action.selected',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  flexShrink: 0,
} as const;

export interface TicketRowProps {
  ticket: TicketDto;
  selected: boolean;
  busy?: boolean;
  onOpen: (ticket: TicketDto) => void;
  onAccept: (ticket: TicketDto) => void;
  onView: (ticket: TicketDto) => void;
}

/** One ticket in a list, exactly as §2 "Ticket row" describes it. */
export const TicketRow = memo(function TicketRow({ ticket, selected, busy, onOpen, onAccept, onView }: TicketRowProps) {
  const { t } = useTranslation();
  const pending = ticket.status === 'pending';
  const queueName = ticket.queue?.name ?? t('tickets.row.noQueue');
  return (
    <ListItemButton
      component="div"
      selected={selected}
      onClick={() => {
        if (!pending) onOpen(ticket);
      }}
      data-testid={`ticket-row-${ticket.id}`}
      aria-label={ticket.contact.name}
      sx={{ height: TICKET_ROW_HEIGHT, pl: 0, pr: 1, py: 0.5, gap: 1, alignItems: 'stretch', borderBottom: 1, borderColor: 'divider', cursor: pending ? 'default' : 'pointer' }}
    >
      {/* A native tooltip: cheap enough for rows mounted while scrolling fast. */}
      <Box
        data-testid="queue-bar"
        aria-label={queueName}
        title={queueName}
        sx={{ width: 6, flexShrink: 0, borderRadius: '0 4px 4px 0' }}
        style={{ backgroundColor: ticket.queue?.color ?? NO_QUEUE_COLOR }}
      />
      <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name} sx={{ alignSelf: 'center' }}>
        {ticket.contact.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Typography noWrap sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} variant="body2">
            {ticket.contact.name}
          </Typography>
          {ticket.status === 'closed' && (
            <Box component="span" sx={TAG_SX}>
              {t('tickets.row.closed')}
            </Box>
          )}
          <OutOfHoursBadge show={ticket.arrivedOutOfHours} />
          {/* The last message's time (§2), not the ticket's last change (accepting it, say). */}
          <Typography variant="caption" color={ticket.unreadMessages ? 'primary.main' : 'text.secondary'} sx={{ flexShrink: 0 }} data-testid="last-message-time">
            {ticket.lastMessageAt === undefined ? formatRowTime(ticket.updatedAt) : ticket.lastMessageAt ? formatRowTime(ticket.lastMessageAt) : ''}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography noWrap variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 0 }} data-testid="last-message">
            {/* In a search, the matching message (match in bold) instead of the last one. */}
            {ticket.searchMatch ? (
              <span data-testid="search-snippet" title={ticket.searchMatch.text}>
                {renderSearchMatch(ticket.searchMatch)}
              </span>
            ) : (
              renderLastMessage(ticket.lastMessage, t)
            )}
          </Typography>
          {ticket.unreadMessages > 0 && (
            <Badge
              badgeContent={ticket.unreadMessages}
              color="primary"
              max={999}
              data-testid="unread-badge"
              sx={{ mr: 1.5, '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
            />
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.25, minWidth: 0 }}>
          {(ticket.user || ticket.whatsapp) && (
            <Box component="span" sx={{ ...TAG_SX, bgcolor: 'transparent', border: 1, borderColor: 'divider', maxWidth: '60%' }}>
              <ChannelIcon whatsappId={ticket.whatsappId} />
              {[ticket.user?.name, ticket.whatsapp?.name].filter(Boolean).join(' · ')}
            </Box>
          )}
          {/* The ticket's labels (issue 36 §2): as many as fit, every name in the title. */}
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex' }}>
            <LabelChips labels={ticket.labels} testId="ticket-row-labels" />
          </Box>
          {pending && (
            <>
              <Button
                size="small"
                variant="contained"
                disabled={busy}
                sx={{ py: 0, minWidth: 0, fontSize: 12 }}
                onClick={(e) => {
                  e.stopPropagation();
                  onAccept(ticket);
                }}
              >
                {t('tickets.actions.accept')}
              </Button>
              <Button
                size="small"
                variant="outlined"
                disabled={busy}
                sx={{ py: 0, minWidth: 0, fontSize: 12 }}
                onClick={(e) => {
                  e.stopPropagation();
                  onView(ticket);
                }}
              >
                {t('tickets.actions.view')}
              </Button>
            </>
          )}
        </Box>
      </Box>
    </ListItemButton>
  );
});
