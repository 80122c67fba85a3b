import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useStableNavigate } from '../../app/stable-navigate';
import { useSocketEvent } from '../../services/socket';
import { useAuth } from '../auth/auth-context';
import { previewText } from '../tickets/format';
import { useTicketsList, type TicketListParams } from '../tickets/tickets-api';
import { useTicketsLiveUpdates } from '../tickets/tickets-live';
import { markPermissionOffered, requestPermission, shouldOfferPermission, showBrowserNotification } from './browser-notifications';

export const UNREAD_PARAMS: TicketListParams = { withUnreadMessages: true, showAll: false };

/** The tickets with unread messages (the bell), kept live; new messages on tickets not in view notify (§4). */
export function useUnreadTickets() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // Neither the address nor a navigate that changes with it: the bell would render again at every one (issue 11).
  const navigate = useStableNavigate();
  useTicketsLiveUpdates();
  const { data } = useTicketsList(UNREAD_PARAMS, !!user);
  const tickets = data?.pages.flatMap((p) => p.tickets) ?? [];
  const count = data?.pages[0]?.count ?? 0;

  useSocketEvent('appMessage', (e) => {
    if (e.action !== 'create' || e.message.fromMe || !user) return;
    if (e.ticket.userId !== user.id && e.ticket.status !== 'pending') return;
    const inView = window.location.pathname === `/tickets/${e.ticket.id}` && document.visibilityState === 'visible';
    if (inView) return;
    showBrowserNotification(
      t('ticketNotifications.messageFrom', { name: e.contact.name }),
      previewText(e.message.body) || t('ticketNotifications.media'),
      e.contact.profilePicUrl || undefined,
      () => navigate(`/tickets/${e.ticket.id}`),
    );
  });

  // Ask once, politely, whether the browser may show notifications.
  useEffect(() => {
    if (!user || !shouldOfferPermission()) return;
    markPermissionOffered();
    toast.info(t('ticketNotifications.enablePrompt'), {
      toastId: 'notifications-permission',
      autoClose: 10_000,
      onClick: () => void requestPermission(),
    });
  }, [user, t]);

  return { tickets, count };
}
