import type { TicketDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableNavigate } from '../../app/stable-navigate';
import { useInfiniteScroll } from '../../hooks/use-infinite-scroll';
import { toastError, toastSuccess } from '../../services/toast-error';
import { prefetchChat } from '../chat/messages-api';
import { PEEK_STATE } from '../chat/peek';
import { followTicket } from './follow-ticket';
import { useAuth } from '../auth/auth-context';
import { TICKET_ROW_HEIGHT, TicketRow } from './ticket-row';
import { updateTicket, type TicketListParams, useTicketsList } from './tickets-api';
import { applyTicketChange } from './tickets-live';
import { useOpenTicketId } from './use-open-ticket-id';
import { useQueryClient } from '@tanstack/react-query';

export interface TicketsListProps {
  params: TicketListParams;
  testId?: string;
  /** What an empty list says, and the next step it offers. */
  empty?: { text: string; action?: ReactNode };
}

/** A search hit opens the chat at its message (issue 33 item 3; see FOCUS in chat-view). */
function focusOf(ticket: TicketDto): { focusMessage: number } | undefined {
  const id = ticket.searchMatch?.messageId;
  return id ? { focusMessage: id } : undefined;
}

/** A virtualized ticket list that pages on scroll. */
export function TicketsList({ params, testId, empty }: TicketsListProps) {
  const { t } = useTranslation();
  const selectedId = useOpenTicketId();
  const navigate = useStableNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const { data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useTicketsList(params);
  const tickets = useMemo(() => data?.pages.flatMap((p) => p.tickets) ?? [], [data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TICKET_ROW_HEIGHT,
    getItemKey: useCallback((i: number) => tickets[i]?.id ?? i, [tickets]),
    overscan: 8,
  });

  const { onScroll } = useInfiniteScroll({ hasNextPage, isFetchingNextPage, fetchNextPage });

  // The callbacks stay the same while the user or the language change, so the memoized rows do not all render again.
  const latest = useRef({ navigate, queryClient, user, t });
  useEffect(() => {
    latest.current = { navigate, queryClient, user, t };
  });
  // Opening a ticket starts loading its chat at once (prefetchChat), while the screen changes.
  const onOpen = useCallback((ticket: TicketDto) => {
    const { navigate, queryClient } = latest.current;
    prefetchChat(queryClient, ticket);
    navigate(`/tickets/${ticket.id}`, { state: focusOf(ticket) });
  }, []);
  // Accept takes the ticket and follows it to Working on, where it stays selected.
  const onAccept = useCallback(async (ticket: TicketDto) => {
    setBusyId(ticket.id);
    try {
      const updated = await updateTicket(ticket.id, { status: 'open' });
      const { navigate, queryClient, user, t } = latest.current;
      applyTicketChange(queryClient, user, { type: 'update', ticket: updated });
      prefetchChat(queryClient, updated);
      toastSuccess(t('tickets.done.accepted'));
      navigate(`/tickets/${ticket.id}`, { state: followTicket(updated) });
    } catch (err) {
      toastError(err);
    } finally {
      setBusyId(null);
    }
  }, []);
  const accept = useCallback((ticket: TicketDto) => void onAccept(ticket), [onAccept]);
  // View peeks (§4: it stays pending): no change to the ticket, so it is neither read nor moved.
  const onView = useCallback((ticket: TicketDto) => {
    const { navigate, queryClient } = latest.current;
    prefetchChat(queryClient, ticket, { peek: true });
    navigate(`/tickets/${ticket.id}`, { state: { ...PEEK_STATE, ...focusOf(ticket) } });
  }, []);

  return (
    <Box ref={scrollRef} onScroll={onScroll} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', position: 'relative' }} data-testid={testId}>
      {isLoading && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress size={28} />
        </Box>
      )}
      {!isLoading && tickets.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }} data-testid="tickets-empty">
          <Typography variant="body2" color="text.secondary">
            {empty?.text ?? t('tickets.list.empty')}
          </Typography>
          {empty?.action}
        </Box>
      )}
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const ticket = tickets[item.index];
          return (
            <div
              key={item.key}
              data-index={item.index}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: TICKET_ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <TicketRow
                ticket={ticket}
                selected={ticket.id === selectedId}
                busy={busyId === ticket.id}
                onOpen={onOpen}
                onAccept={accept}
                onView={onView}
              />
            </div>
          );
        })}
      </Box>
      {isFetchingNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
          <CircularProgress size={20} />
        </Box>
      )}
    </Box>
  );
}
