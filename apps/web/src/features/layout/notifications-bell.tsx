import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import NotificationsIcon from '@mui/icons-material/Notifications';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableNavigate } from '../../app/stable-navigate';
import { notificationsSupported, requestPermission } from '../notifications/browser-notifications';
import { useUnreadTickets } from '../notifications/use-unread-tickets';
import { previewText } from '../tickets/format';

/** The bell with the count of unread tickets and their list (§2 top bar), and the tickets colleagues transferred to the user. */
export function NotificationsBell() {
  const { t } = useTranslation();
  const navigate = useStableNavigate();
  const { tickets, count, transfers, openTransfer, mentions, openMention, markTransfersSeen } = useUnreadTickets();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [permission, setPermission] = useState(() => (notificationsSupported() ? Notification.permission : 'denied'));
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('aria.notifications')}
        onClick={(e) => {
          setAnchor(e.currentTarget);
          markTransfersSeen();
        }}
        data-testid="notifications-bell"
      >
        <Badge badgeContent={count} color="error" invisible={count === 0} max={99} data-testid="notifications-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {tickets.length === 0 && transfers.length === 0 && mentions.length === 0 ? (
          <Typography sx={{ p: 2, minWidth: 240 }} color="text.secondary">
            {t('notifications.empty')}
          </Typography>
        ) : (
          <List dense sx={{ width: 320, maxWidth: '90vw', maxHeight: 400, overflowY: 'auto' }}>
            {/* Notes that named the user (issue 36 §1), newest first, until opened from here or from their toast. */}
            {mentions.map(({ messageId, ticketId, from, contactName, excerpt }) => (
              <ListItemButton
                key={`mention-${messageId}`}
                data-testid="mention-notification"
                onClick={() => {
                  setAnchor(null);
                  openMention(messageId, ticketId);
                }}
              >
                <ListItemAvatar>
                  <Avatar sx={{ bgcolor: '#ffe58a', color: '#5c4600' }}>
                    <AlternateEmailIcon />
                  </Avatar>
                </ListItemAvatar>
                <ListItemText
                  primary={t('ticketNotifications.mentioned', { name: from.name, contact: contactName })}
                  secondary={excerpt}
                  slotProps={{ secondary: { noWrap: true } }}
                />
              </ListItemButton>
            ))}
            {/* Tickets colleagues transferred to the user, newest first, until opened from here or from their toast. */}
            {transfers.map(({ ticket, by }) => (
              <ListItemButton
                key={`transfer-${ticket.id}`}
                data-testid="transfer-notification"
                onClick={() => {
                  setAnchor(null);
                  openTransfer(ticket.id);
                }}
              >
                <ListItemAvatar>
                  <Avatar src={ticket.contact.profilePicUrl || undefined}>
                    {by ? <SwapHorizIcon /> : <AssignmentIndIcon />}
                  </Avatar>
                </ListItemAvatar>
                <ListItemText
                  primary={
                    by
                      ? t('ticketNotifications.transferred', { name: by.name, contact: ticket.contact.name })
                      : t('autoAssign.assigned', { contact: ticket.contact.name })
                  }
                  secondary={by ? t('ticketNotifications.transferTitle') : previewText(ticket.lastMessage) || t('autoAssign.bellAssigned')}
                  slotProps={{ secondary: { noWrap: true } }}
                />
              </ListItemButton>
            ))}
            {tickets.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                onClick={() => {
                  setAnchor(null);
                  navigate(`/tickets/${ticket.id}`);
                }}
              >
                <ListItemAvatar>
                  <Badge badgeContent={ticket.unreadMessages} color="primary">
                    <Avatar src={ticket.contact.profilePicUrl || undefined}>{ticket.contact.name.slice(0, 1).toUpperCase()}</Avatar>
                  </Badge>
                </ListItemAvatar>
                <ListItemText primary={ticket.contact.name} secondary={previewText(ticket.lastMessage)} slotProps={{ secondary: { noWrap: true } }} />
              </ListItemButton>
            ))}
          </List>
        )}
        {permission === 'default' && (
          <Button
            size="small"
            fullWidth
            onClick={() =>
              void requestPermission().then(() => setPermission(notificationsSupported() ? Notification.permission : 'denied'))
            }
          >
            {t('ticketNotifications.enable')}
          </Button>
        )}
      </Popover>
    </>
  );
}
