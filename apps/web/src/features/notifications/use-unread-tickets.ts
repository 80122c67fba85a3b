import type { ServerEventPayload } from '@wadesk/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useStableNavigate } from '../../app/stable-navigate';
import { useSocketEvent } from '../../services/socket';
import { useAuth } from '../auth/auth-context';
import { previewText } from '../tickets/format';
import { useTicketsList, type TicketListParams } from '../tickets/tickets-api';
import { useTicketsLiveUpdates } from '../tickets/tickets-live';
import { fetchUnseenMentions, markMentionsSeen } from './mentions-api';
import { markPermissionOffered, playChime, requestPermission, shouldOfferPermission, showBrowserNotification } from './browser-notifications';

export const UNREAD_PARAMS: TicketListParams = { withUnreadMessages: true, showAll: false };

/**
 * A ticket handed to the signed-in user, as the bell lists it: a colleague's transfer (`by`), or automatic assignment
 * (`by` null, issue 36 §4).
 */
export type TransferNotice = { ticket: ServerEventPayload<'ticketTransfer'>['ticket']; by: ServerEventPayload<'ticketTransfer'>['by'] | null; seen: boolean };

/** A colleague named the user in a note (issue 36 §1), as the bell lists it. */
export type MentionNotice = Omit<ServerEventPayload<'mention'>, 'action'> & { seen: boolean };

/** The bell keeps the newest transfers (and mentions) of this session, up to this many. */
const MAX_TRANSFERS = 10;

/**
 * The tickets with unread messages (the bell), kept live; new messages on tickets not in view notify (§4); a ticket a
 * colleague transferred to the user notifies too (sound, toast, the bell) until it is opened from there.
 */
export function useUnreadTickets() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // Neither the address nor a navigate that changes with it: the bell would render again at every one (issue 11).
  const navigate = useStableNavigate();
  useTicketsLiveUpdates();
  const { data } = useTicketsList(UNREAD_PARAMS, !!user);
  const tickets = data?.pages.flatMap((p) => p.tickets) ?? [];
  const [transfers, setTransfers] = useState<TransferNotice[]>([]);
  const [mentions, setMentions] = useState<MentionNotice[]>([]);
  const unseenTransfers = transfers.filter((n) => !n.seen).length + mentions.filter((n) => !n.seen).length;
  const count = (data?.pages[0]?.count ?? 0) + unseenTransfers;

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

  /** Opens a transferred ticket and takes it off the bell. */
  const openTransfer = useCallback(
    (ticketId: number) => {
      setTransfers((list) => list.filter((n) => n.ticket.id !== ticketId));
      navigate(`/tickets/${ticketId}`);
    },
    [navigate],
  );

  useSocketEvent('ticketTransfer', (e) => {
    if (!user || e.by.id === user.id) return;
    setTransfers((list) => [{ ...e, seen: false }, ...list.filter((n) => n.ticket.id !== e.ticket.id)].slice(0, MAX_TRANSFERS));
    const text = t('ticketNotifications.transferred', { name: e.by.name, contact: e.ticket.contact.name });
    toast.info(text, { toastId: `transfer-${e.ticket.id}`, onClick: () => openTransfer(e.ticket.id) });
    // A page in view has the toast; one in the background also gets the desktop notification (each plays the chime).
    if (document.visibilityState === 'visible') playChime();
    else showBrowserNotification(t('ticketNotifications.transferTitle'), text, e.ticket.contact.profilePicUrl || undefined, () => openTransfer(e.ticket.id));
  });

  // Automatic assignment gave the user a ticket (issue 36 §4): the same sound, toast and bell line as a transfer.
  useSocketEvent('ticketAssigned', (e) => {
    if (!user) return;
    setTransfers((list) => [{ ticket: e.ticket, by: null, seen: false }, ...list.filter((n) => n.ticket.id !== e.ticket.id)].slice(0, MAX_TRANSFERS));
    const text = t('autoAssign.assigned', { contact: e.ticket.contact.name });
    toast.info(text, { toastId: `assigned-${e.ticket.id}`, onClick: () => openTransfer(e.ticket.id) });
    if (document.visibilityState === 'visible') playChime();
    else showBrowserNotification(t('autoAssign.assignedTitle'), text, e.ticket.contact.profilePicUrl || undefined, () => openTransfer(e.ticket.id));
  });

  // The mentions not opened before this page loaded (the server keeps them until opened from the bell).
  const { data: stored } = useQuery({ queryKey: ['mentions', 'unseen', user?.id], enabled: !!user, staleTime: Infinity, queryFn: fetchUnseenMentions, meta: { silent: true } });
  useEffect(() => {
    if (!stored || stored.length === 0) return;
    setMentions((list) => {
      const known = new Set(list.map((n) => n.messageId));
      const added = stored.filter((m) => !known.has(m.messageId)).map(({ createdAt: _at, ...m }) => ({ ...m, seen: false }));
      return added.length > 0 ? [...list, ...added].slice(0, MAX_TRANSFERS) : list;
    });
  }, [stored]);

  /** Opens the ticket of a note that named the user, and takes that ticket's mentions off the bell (here and on the server). */
  const openMention = useCallback(
    (_messageId: number, ticketId: number) => {
      setMentions((list) => list.filter((n) => n.ticketId !== ticketId));
      markMentionsSeen(ticketId).catch(() => undefined);
      navigate(`/tickets/${ticketId}`);
    },
    [navigate],
  );

  useSocketEvent('mention', (e) => {
    if (!user || e.from.id === user.id) return;
    const { action: _action, ...notice } = e;
    setMentions((list) => [{ ...notice, seen: false }, ...list.filter((n) => n.messageId !== e.messageId)].slice(0, MAX_TRANSFERS));
    const text = t('ticketNotifications.mentioned', { name: e.from.name, contact: e.contactName });
    toast.info(`${text}: ${e.excerpt}`, { toastId: `mention-${e.messageId}`, onClick: () => openMention(e.messageId, e.ticketId) });
    // As a transfer: the toast (with the chime) in view, the desktop notification in the background.
    if (document.visibilityState === 'visible') playChime();
    else showBrowserNotification(t('ticketNotifications.mentionTitle'), `${text}: ${e.excerpt}`, undefined, () => openMention(e.messageId, e.ticketId));
  });

  /** The bell was opened: its transfers and mentions are seen (no longer counted), and stay listed until opened. */
  const markTransfersSeen = useCallback(() => {
    setTransfers((list) => (list.some((n) => !n.seen) ? list.map((n) => ({ ...n, seen: true })) : list));
    setMentions((list) => (list.some((n) => !n.seen) ? list.map((n) => ({ ...n, seen: true })) : list));
  }, []);

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

  return { tickets, count, transfers, openTransfer, mentions, openMention, markTransfersSeen };
}
