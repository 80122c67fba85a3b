import type { MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useStableNavigate } from '../../app/stable-navigate';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete';
import { useSocket, useSocketEvent } from '../../services/socket';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { ContactDrawer } from '../tickets/contact-drawer';
import { TicketHeader } from '../tickets/ticket-header';
import { useTicket } from '../tickets/tickets-api';
import { applyTicketChange } from '../tickets/tickets-live';
import { useOpenedOnce } from '../tickets/use-opened-once';
import { ChatConnectionBanner } from './chat-connection-banner';
import { ImportExportPanel } from './import-export-panel';
import { MessageInput } from './message-input';
import { deleteMessage, flattenMessages, markRead, messagesKey, reactToMessage, upsertMessage, useConversationTickets, useEventsFollowTicket, useMessages, useTicketEvents } from './messages-api';
import { MessagesList } from './messages-list';
import { focusedMessage, isPeek } from './peek';

/**
 * The chat screen of one ticket (§2): header, messages, input, contact drawer. `onContactPanel` hears when the
 * contact panel opens and closes (the page makes room for it).
 */
export function ChatView({ ticketId, onContactPanel }: { ticketId: number; onContactPanel?: (open: boolean) => void }) {
  const { t } = useTranslation();
  const navigate = useStableNavigate();
  const queryClient = useQueryClient();
  const socket = useSocket();
  const { user } = useAuth();
  const location = useLocation();
  // View (peek) on a waiting ticket reads it without marking it read (§4).
  const peek = isPeek(location.state);
  // Opened from a search hit: the chat scrolls to the matching message and highlights it (issue 33 item 3).
  const focusMessageId = focusedMessage(location.state);
  const ticketQuery = useTicket(ticketId);
  const messagesQuery = useMessages(ticketId, peek);
  const ticket = ticketQuery.data ?? messagesQuery.data?.pages[0]?.ticket;
  // Memoized: the list, the input and the header below are too, so a change to one (a message arriving, the
  // ticket refreshed) does not render the others again.
  const messages = useMemo(() => flattenMessages(messagesQuery.data), [messagesQuery.data]);
  const events = useTicketEvents(messagesQuery.data);
  // The contact's earlier tickets the older pages reached (issue 32): the list marks where each begins.
  const conversationTickets = useConversationTickets(messagesQuery.data);
  useEventsFollowTicket(ticket);
  const [contactOpen, setContactOpen] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [replyingTo, setReplyingTo] = useState<MessageDto | null>(null);
  const deletingSelf = useRef(false);
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Opening a ticket reads it: clear its unread count in the lists.
  useEffect(() => {
    if (!peek && messagesQuery.data?.pages.length === 1) applyTicketChange(queryClient, user, { type: 'read', ticketId });
  }, [messagesQuery.data?.pages.length, queryClient, user, ticketId, peek]);

  // A peek that turns into a real opening (Accept from the header) reads the ticket then.
  const wasPeek = useRef(peek);
  useEffect(() => {
    if (wasPeek.current && !peek) {
      void markRead(ticketId).catch(() => undefined);
      applyTicketChange(queryClient, user, { type: 'read', ticketId });
    }
    wasPeek.current = peek;
  }, [peek, ticketId, queryClient, user]);

  useEffect(() => {
    const error = ticketQuery.error ?? messagesQuery.error;
    if (error) {
      toastError(error);
      navigate('/tickets');
    }
  }, [ticketQuery.error, messagesQuery.error, navigate]);

  useEffect(() => {
    onContactPanel?.(contactOpen);
  }, [contactOpen, onContactPanel]);
  useEffect(() => () => onContactPanel?.(false), [onContactPanel]);

  useEffect(() => {
    setReplyingTo(null);
    setToolsOpen(false);
    deletingSelf.current = false;
  }, [ticketId]);

  useEffect(() => {
    if (!socket) return undefined;
    const join = () =>
      socket.emit('joinChatBox', ticketId, (result) => {
        if (!result.ok && result.error === 'ERR_NO_PERMISSION') toastError(new Error(t('chat.noPermission')));
      });
    if (socket.connected) join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
      socket.emit('leaveChatBox', ticketId);
    };
  }, [socket, ticketId, t]);

  // Leaving a ticket drops its loaded pages: coming back loads the newest page again, not every page seen.
  useEffect(
    () => () => {
      clearTimeout(readTimer.current);
      queryClient.removeQueries({ queryKey: messagesKey(ticketId) });
    },
    [queryClient, ticketId],
  );

  useSocketEvent('appMessage', (e) => {
    if (e.message.ticketId !== ticketId) return;
    upsertMessage(queryClient, e.message);
    // A message that arrives while the ticket is on screen is read at once.
    if (e.action === 'create' && !e.message.fromMe && !peek && document.visibilityState === 'visible') {
      clearTimeout(readTimer.current);
      readTimer.current = setTimeout(() => void markRead(ticketId).catch(() => undefined), 1000);
    }
  });

  useSocketEvent('ticket', (e) => {
    if (e.action === 'delete' && e.ticketId === ticketId && !deletingSelf.current) {
      toast.warning(t('tickets.header.deletedLive'), { toastId: `deleted-${ticketId}` });
      queryClient.removeQueries({ queryKey: messagesKey(ticketId) });
      navigate('/tickets');
    }
  });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = messagesQuery;
  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onReply = useCallback((m: MessageDto) => setReplyingTo(m), []);
  const onCancelReply = useCallback(() => setReplyingTo(null), []);
  const onOpenContact = useCallback(() => setContactOpen(true), []);
  const onCloseContact = useCallback(() => setContactOpen(false), []);
  const onToggleTools = useCallback(() => setToolsOpen((v) => !v), []);
  const onDeleting = useCallback(() => {
    deletingSelf.current = true;
  }, []);
  const messageDeletion = useConfirmedDelete(async (m: MessageDto) => {
    const updated = await deleteMessage(m.id);
    if (updated && typeof updated === 'object' && 'id' in updated) upsertMessage(queryClient, updated);
  }, () => undefined);
  const deleteDialogMounted = useOpenedOnce(!!messageDeletion.target);
  const onReact = useCallback(
    (m: MessageDto, emoji: string) => {
      reactToMessage(m.id, emoji).then(
        (reaction) => {
          if (reaction) upsertMessage(queryClient, reaction);
        },
        (err: unknown) => toastError(err),
      );
    },
    [queryClient],
  );

  if (!ticket) {
    return (
      <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress />
      </Box>
    );
  }

  return (
    // A row: the chat, and beside it the contact panel that shrinks it on wide screens (see ContactDrawer).
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0, minWidth: 0, flex: 1 }}>
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, minWidth: 0, flex: 1 }} data-testid="chat-view">
      <TicketHeader ticket={ticket} onOpenContact={onOpenContact} onToggleTools={onToggleTools} onDeleting={onDeleting} />
      <ChatConnectionBanner whatsappId={ticket.whatsappId} />
      <ImportExportPanel open={toolsOpen} ticket={ticket} messages={messages} me={user?.name ?? ''} />
      <MessagesList
        key={ticketId}
        ticketId={ticketId}
        messages={messages}
        events={events}
        tickets={conversationTickets}
        isGroup={ticket.isGroup}
        loading={messagesQuery.isLoading}
        hasOlder={!!hasNextPage}
        loadingOlder={isFetchingNextPage}
        loadOlder={loadOlder}
        onReply={onReply}
        onDelete={messageDeletion.ask}
        onReact={ticket.status === 'open' ? onReact : undefined}
        focusMessageId={focusMessageId}
      />
      <MessageInput ticketId={ticketId} contact={ticket.contact} whatsappId={ticket.whatsappId} disabled={ticket.status !== 'open'} replyingTo={replyingTo} onCancelReply={onCancelReply} />
    </Box>
      <ContactDrawer contact={ticket.contact} open={contactOpen} onClose={onCloseContact} csat={ticket.csat} />
      {deleteDialogMounted && (
        <ConfirmDialog
          open={!!messageDeletion.target}
          title={t('chat.message.deleteTitle')}
          text={t('chat.message.deleteText')}
          confirmLabel={t('chat.message.delete')}
          onConfirm={() => void messageDeletion.confirm()}
          onClose={messageDeletion.cancel}
        />
      )}
    </Box>
  );
}
