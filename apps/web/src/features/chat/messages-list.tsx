import type { MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { formatDate } from '../tickets/format';
import { MessageBubble } from './message-bubble';

/** §9: the next (older) page loads when scroll-top is under 50, debounced 500 ms. */
const TOP_THRESHOLD = 50;
const LOAD_DEBOUNCE_MS = 500;
const NEAR_BOTTOM = 150;

type Item = { kind: 'day'; key: string; label: string } | { kind: 'msg'; key: string; message: MessageDto };

function buildItems(messages: MessageDto[]): Item[] {
  const items: Item[] = [];
  let lastDay = '';
  for (const message of messages) {
    const day = formatDate(message.createdAt);
    if (day !== lastDay) {
      items.push({ kind: 'day', key: `d-${day}-${message.id}`, label: day });
      lastDay = day;
    }
    items.push({ kind: 'msg', key: `m-${message.id}`, message });
  }
  return items;
}

function estimate(item: Item | undefined): number {
  if (!item) return 60;
  if (item.kind === 'day') return 40;
  const m = item.message;
  if (m.mediaType === 'image' || m.mediaType === 'video' || m.mediaType === 'sticker') return 290;
  if (m.mediaType === 'location') return 200;
  const lines = m.body.split('\n').length + Math.floor(m.body.length / 60);
  return 44 + Math.min(lines, 40) * 20 + (m.quotedMsg ? 56 : 0);
}

export interface MessagesListProps {
  messages: MessageDto[];
  isGroup: boolean;
  loading: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  onReply: (message: MessageDto) => void;
  onDelete: (message: MessageDto) => void;
}

/** The conversation, virtualized: stays at the bottom for new messages and keeps its place when older ones load. */
export function MessagesList({ messages, isGroup, loading, hasOlder, loadingOlder, loadOlder, onReply, onDelete }: MessagesListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const items = useMemo(() => buildItems(messages), [messages]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const prev = useRef<{ anchorKey?: string; anchorStart: number; lastKey?: string; count: number; atBottom: boolean }>({ anchorStart: 0, count: 0, atBottom: true });

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(items[i]),
    getItemKey: (i) => items[i]?.key ?? i,
    overscan: 6,
    paddingStart: 8,
    paddingEnd: 8,
  });

  // Keep the view in place when older messages are prepended; follow new ones at the bottom.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const before = prev.current;
    const anchorIndex = items.findIndex((i) => i.kind === 'msg');
    const anchorKey = items[anchorIndex]?.key;
    const lastKey = items[items.length - 1]?.key;
    if (el && items.length > 0) {
      if (before.count === 0) {
        virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
      } else if (before.anchorKey && anchorKey !== before.anchorKey) {
        const k = items.findIndex((i) => i.key === before.anchorKey);
        const start = k >= 0 ? virtualizer.measurementsCache[k]?.start : undefined;
        if (start !== undefined) el.scrollTop += start - before.anchorStart;
      } else if (lastKey !== before.lastKey) {
        const last = items[items.length - 1];
        if (before.atBottom || (last.kind === 'msg' && last.message.fromMe)) {
          virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
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

  const check = () => {
    const el = scrollRef.current;
    if (!el) return;
    prev.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM;
    if (el.scrollTop < TOP_THRESHOLD && hasOlder && !loadingOlder) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const now = scrollRef.current;
        if (now && now.scrollTop < TOP_THRESHOLD) loadOlder();
      }, LOAD_DEBOUNCE_MS);
    }
  };

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
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
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
              ) : (
                <MessageBubble message={item.message} isGroup={isGroup} onReply={onReply} onDelete={onDelete} />
              )}
            </div>
          );
        })}
      </Box>
    </Box>
  );
}
