import { reactionsOn, type ConversationTicketDto, type MessageDto, type TicketEventDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import { useVirtualizer } from '@tanstack/react-virtual';
import Fab from '@mui/material/Fab';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { buildConversationItems, type ConversationItem } from './conversation-items';
import { MessageBubble } from './message-bubble';
import { TicketSeparator } from './ticket-separator';
import { TimelineEventLine } from './timeline-event';
import { foldsText } from './whatsapp-format';

/** §9: the next (older) page loads when scroll-top is under 50, debounced 500 ms. */
const TOP_THRESHOLD = 50;
const LOAD_DEBOUNCE_MS = 500;
const NEAR_BOTTOM = 150;
/** How long after the reader's wheel, touch, key or scrollbar a scroll up is theirs. */
const READER_SCROLL_MS = 1000;
/** Keys that scroll a view up (outside a text field). */
const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home', ' ']);

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT');
}

/**
 * A row's height before it is measured, as close as it can be told: a row measured at its estimate renders once, and
 * the rows first rendered are the ones that show (one render of a screenful when a ticket opens, not three: issue 11).
 * A one-line text bubble is 48 px (message-bubble.module.css): 4 of row padding, 6 of bubble padding, a 20 px line and
 * the 18 px time (with the origin of a message not typed here, issue 32); the sender in a group adds a caption line.
 */
function estimate(item: ConversationItem | undefined, isGroup: boolean): number {
  if (!item) return 60;
  if (item.kind === 'day') return 40;
  if (item.kind === 'ticket') return 44;
  if (item.kind === 'event') return 36;
  const m = item.message;
  if (m.mediaType === 'image' || m.mediaType === 'video' || m.mediaType === 'sticker') return 290;
  if (m.mediaType === 'location') return 200;
  // A long text folds after ten lines, with "Read more" under them (issue 33 item 2).
  const lines = foldsText(m.body) ? 11 : m.body.split('\n').length + Math.floor(m.body.length / 60);
  return 28 + Math.min(lines, 40) * 20 + (m.quotedMsg ? 56 : 0) + (isGroup && !m.fromMe ? 20 : 0);
}

export interface MessagesListProps {
  /** The ticket on screen: messages of the contact's earlier tickets (loaded past its first) show as history. */
  ticketId: number;
  messages: MessageDto[];
  isGroup: boolean;
  loading: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  onReply: (message: MessageDto) => void;
  onDelete: (message: MessageDto) => void;
  /** Reacts to a message; absent: no reactions (the ticket is not open). */
  onReact?: (message: MessageDto, emoji: string) => void;
  /** The ticket's events (accepted, transferred, resolved…), shown between the messages. */
  events?: TicketEventDto[];
  /** The earlier tickets whose messages are loaded, by id: their separators say when and by whom they were resolved. */
  tickets?: ReadonlyMap<number, ConversationTicketDto>;
  /** A message to scroll to and highlight (a search hit opened, issue 33 item 3): older pages load until it is found. */
  focusMessageId?: number | null;
}

/** How many older pages a search hit may load to reach its message. */
const FOCUS_MAX_PAGES = 20;

/** The conversation, virtualized: stays at the bottom for new messages and keeps its place when older ones load. */
export const MessagesList = memo(function MessagesList({ ticketId, messages, isGroup, loading, hasOlder, loadingOlder, loadOlder, onReply, onDelete, onReact, events, tickets, focusMessageId }: MessagesListProps) {
  const { t } = useTranslation();
  // The reactions on each message (its latest of each side), shown on its bubble; the picker marks this side's.
  const reactions = useMemo(() => reactionsOn(messages), [messages]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The day separators are written in the interface language: built again when it changes.
  const language = currentLanguage();
  const items = useMemo(() => buildConversationItems(messages, events ?? [], ticketId, tickets, language), [messages, events, ticketId, tickets, language]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const contentRef = useRef<HTMLDivElement>(null);
  const [unseen, setUnseen] = useState(0);
  const lastTop = useRef(0);
  // When the reader last moved the view (wheel, touch, keys), and whether they hold its scrollbar.
  const readerAt = useRef(Number.NEGATIVE_INFINITY);
  const holding = useRef(false);
  const prev = useRef<{ anchorKey?: string; anchorStart: number; lastKey?: string; count: number; atBottom: boolean }>({ anchorStart: 0, count: 0, atBottom: true });

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(items[i], isGroup),
    getItemKey: (i) => items[i]?.key ?? i,
    overscan: 6,
    paddingStart: 8,
    paddingEnd: 8,
  });

  // Keep the view in place when older messages are prepended; follow new ones at the bottom. The bottom is the
  // element's own (scrollToEnd retargets it every frame until it holds), not the last row's offset as measured so far:
  // a photo taking its size while the virtualizer had the row shorter sent the view back up, short of the end, and the
  // scroll up that made read as the reader's, unpinning the view.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = prev.current;
    const anchorIndex = items.findIndex((i) => i.kind === 'msg');
    const anchorKey = items[anchorIndex]?.key;
    const lastKey = items[items.length - 1]?.key;
    if (el && items.length > 0) {
      if (before.count === 0) {
        virtualizer.scrollToEnd();
      } else if (before.anchorKey && anchorKey !== before.anchorKey) {
        const k = items.findIndex((i) => i.key === before.anchorKey);
        const start = k >= 0 ? virtualizer.measurementsCache[k]?.start : undefined;
        if (start !== undefined) el.scrollTop += start - before.anchorStart;
      } else if (lastKey !== before.lastKey) {
        const last = items[items.length - 1];
        if (before.atBottom || (last.kind === 'msg' && last.message.fromMe)) {
          virtualizer.scrollToEnd();
          before.atBottom = true;
        } else if (last.kind === 'msg') {
          // Scrolled up reading older messages: say a new one came, without moving the view.
          setUnseen((n) => n + 1);
        }
      }
    }
    prev.current = {
      anchorKey,
      anchorStart: virtualizer.measurementsCache[anchorIndex]?.start ?? 0,
      lastKey,
      count: items.length,
      atBottom: before.atBottom,
    };
  }, [items, virtualizer]);

  // Media take their size after they load (images, videos, stickers): while pinned to the bottom, follow
  // the growing content so the conversation ends at the newest message, not short of it.
  useEffect(() => {
    const el = scrollRef.current;
    const content = contentRef.current;
    if (!el || !content || typeof ResizeObserver === 'undefined') return undefined;
    const follow = () => {
      if (prev.current.atBottom) el.scrollTop = el.scrollHeight;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    // The scrollbar, held: a press on the list itself (not on a bubble's button), until released anywhere.
    const onPointerDown = (e: PointerEvent) => {
      if (e.target === el) holding.current = true;
    };
    const onPointerUp = () => {
      if (holding.current) readerAt.current = performance.now();
      holding.current = false;
    };
    // Keys scroll the list when the focus is in it or on the page itself; typing in the composer does not.
    const onKeyDown = (e: KeyboardEvent) => {
      if (SCROLL_UP_KEYS.has(e.key) && !isEditable(e.target)) readerAt.current = performance.now();
    };
    el.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', onPointerUp);
    window.addEventListener('keydown', onKeyDown, true);
    // Media events do not bubble: listen in the capture phase, after layout.
    const onMediaSized = () => requestAnimationFrame(follow);
    el.addEventListener('load', onMediaSized, true);
    el.addEventListener('loadedmetadata', onMediaSized, true);
    return () => {
      observer.disconnect();
      el.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pointerup', onPointerUp);
      window.removeEventListener('pointercancel', onPointerUp);
      window.removeEventListener('keydown', onKeyDown, true);
      el.removeEventListener('load', onMediaSized, true);
      el.removeEventListener('loadedmetadata', onMediaSized, true);
    };
  }, []);

  const toBottom = () => {
    const el = scrollRef.current;
    prev.current.atBottom = true;
    setUnseen(0);
    if (items.length > 0) virtualizer.scrollToEnd();
    if (el) el.scrollTop = el.scrollHeight;
  };

  const markReader = () => {
    readerAt.current = performance.now();
  };

  const check = () => {
    const el = scrollRef.current;
    if (!el) return;
    // Pinned to the bottom until the reader scrolls up: content growing under the view (a photo taking its
    // size) moves the bottom away without unpinning. Only the reader's scroll up counts. The browser lowers scrollTop
    // itself when the content shrinks (a photo's row, estimated at the photo's height, measured before the photo
    // loads), and the virtualizer retargets the end from rows not yet measured again; when the photo has grown by the
    // time that scroll event is sent, it read as a scroll up far from the end, and the chat stayed 242 px short of it.
    const byReader = holding.current || performance.now() - readerAt.current < READER_SCROLL_MS;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM) prev.current.atBottom = true;
    else if (el.scrollTop < lastTop.current - 1 && byReader) prev.current.atBottom = false;
    lastTop.current = el.scrollTop;
    if (prev.current.atBottom) setUnseen(0);
    if (el.scrollTop < TOP_THRESHOLD && hasOlder && !loadingOlder) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const now = scrollRef.current;
        if (now && now.scrollTop < TOP_THRESHOLD) loadOlder();
      }, LOAD_DEBOUNCE_MS);
    }
  };

  // A search hit opened: once its message is loaded (older pages loading until it is, bounded), scroll to it and
  // highlight it; the view stays there (not pinned to the bottom) until the reader goes down.
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const focused = useRef<{ id: number | null; pages: number }>({ id: null, pages: 0 });
  useEffect(() => {
    if (!focusMessageId || focused.current.id === focusMessageId || loading) return;
    const index = items.findIndex((i) => i.kind === 'msg' && i.message.id === focusMessageId);
    if (index >= 0) {
      focused.current = { id: focusMessageId, pages: 0 };
      prev.current.atBottom = false;
      virtualizer.scrollToIndex(index, { align: 'center' });
      setHighlighted(focusMessageId);
    } else if (hasOlder && !loadingOlder && focused.current.pages < FOCUS_MAX_PAGES) {
      focused.current.pages += 1;
      loadOlder();
    }
  }, [focusMessageId, items, loading, hasOlder, loadingOlder, loadOlder, virtualizer]);

  // A short conversation that does not fill the view cannot be scrolled up: load older pages right away.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || loading || loadingOlder || !hasOlder) return;
    if (el.scrollHeight <= el.clientHeight + TOP_THRESHOLD) loadOlder();
  }, [items.length, loading, loadingOlder, hasOlder, loadOlder]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Box
      ref={scrollRef}
      onScroll={check}
      onWheel={markReader}
      onTouchMove={markReader}
      data-testid="messages-list"
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        overflowAnchor: 'none',
        bgcolor: '#efeae2',
        position: 'relative',
      }}
    >
      {(loading || loadingOlder) && (
        <Box sx={{ position: 'sticky', top: 8, display: 'flex', justifyContent: 'center', zIndex: 1, height: 0 }}>
          <CircularProgress size={24} />
        </Box>
      )}
      <Box ref={contentRef} sx={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = items[v.index];
          return (
            <div
              key={v.key}
              data-index={v.index}
              ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${v.start}px)` }}
            >
              {item.kind === 'day' ? (
                <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
                  <Chip label={item.label} size="small" sx={{ bgcolor: '#ffffffd9', boxShadow: '0 1px 0.5px rgba(11,20,26,.13)' }} data-testid="day-separator" />
                </Box>
              ) : item.kind === 'ticket' ? (
                <TicketSeparator ticketId={item.ticketId} current={item.current} ticket={item.ticket} />
              ) : item.kind === 'event' ? (
                <TimelineEventLine event={item.event} earlier={item.earlier} />
              ) : (
                <MessageBubble
                  message={item.message}
                  isGroup={isGroup}
                  earlier={item.earlier}
                  onReply={onReply}
                  onDelete={onDelete}
                  onReact={onReact}
                  reactions={reactions.get(item.message.id)}
                  highlighted={highlighted === item.message.id}
                />
              )}
            </div>
          );
        })}
      </Box>
      {unseen > 0 && (
        <Box sx={{ position: 'sticky', bottom: 12, display: 'flex', justifyContent: 'center', height: 0, overflow: 'visible', zIndex: 2 }}>
          <Fab
            variant="extended"
            size="small"
            color="primary"
            onClick={toBottom}
            data-testid="new-messages-button"
            sx={{ transform: 'translateY(-100%)', textTransform: 'none', flexShrink: 0 }}
          >
            {t('chat.newMessages')} ({unseen})
            <ArrowDownwardIcon fontSize="small" sx={{ ml: 0.5 }} />
          </Fab>
        </Box>
      )}
    </Box>
  );
});
