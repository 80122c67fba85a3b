import { isAdmin, isReaction, REACTION_EMOJIS, type MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Popover from '@mui/material/Popover';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import AddReactionOutlinedIcon from '@mui/icons-material/AddReactionOutlined';
import BlockIcon from '@mui/icons-material/Block';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DoneIcon from '@mui/icons-material/Done';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import StickyNote2OutlinedIcon from '@mui/icons-material/StickyNote2Outlined';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../services/dates';
import { useAuth } from '../auth/auth-context';
import { renderMarkdown, renderQuotedBody } from '../tickets/format';
import styles from './message-bubble.module.css';
import { MessageMedia, showsBody } from './message-media';
import { messageOrigin, originLabel } from './message-origin';
import { FOLD_CHARS, foldsText } from './whatsapp-format';

export const BUBBLE_MAX_WIDTH = 600;

/** §4 delivery ack: 0 clock, 1 tick, 2 double tick, 3–4 coloured double tick. */
export function AckIcon({ ack }: { ack: number }) {
  if (ack <= 0) return <AccessTimeIcon className={styles.ack} data-testid="ack-0" />;
  if (ack === 1) return <DoneIcon className={styles.ack} data-testid="ack-1" />;
  if (ack === 2) return <DoneAllIcon className={styles.ack} data-testid="ack-2" />;
  return <DoneAllIcon className={`${styles.ack} ${styles.ackRead}`} data-testid={`ack-${ack}`} />;
}

function QuotedMessage({ quoted }: { quoted: NonNullable<MessageDto['quotedMsg']> }) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="quoted-message"
      sx={{ borderLeft: 4, borderColor: quoted.fromMe ? 'primary.main' : 'secondary.main', bgcolor: 'rgba(0,0,0,0.05)', borderRadius: 1, px: 1, py: 0.5, mb: 0.5 }}
    >
      <Typography variant="caption" sx={{ fontWeight: 600, color: quoted.fromMe ? 'primary.dark' : 'secondary.main' }}>
        {quoted.fromMe ? t('chat.you') : (quoted.contact?.name ?? '')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical' }}>
        {renderQuotedBody(quoted, t)}
      </Typography>
    </Box>
  );
}

/**
 * A message's text: WhatsApp's formatting and clickable links; a long text folds after a few lines with
 * "Read more" (issue 33 item 2: a 10,000-character message does not fill the chat).
 */
function MessageText({ body }: { body: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const folded = !open && foldsText(body);
  return (
    <>
      <div className={classes(styles.body, folded && styles.bodyFolded)} data-testid="message-body" data-folded={folded ? 'true' : undefined}>
        {renderMarkdown(folded ? body.slice(0, FOLD_CHARS * 2) : body, { links: true })}
      </div>
      {folded && (
        <button type="button" className={styles.readMore} onClick={() => setOpen(true)} data-testid="message-read-more">
          {t('chat.message.readMore')}
        </button>
      )}
    </>
  );
}

export interface MessageBubbleProps {
  message: MessageDto;
  isGroup: boolean;
  /**
   * Of an earlier ticket of the contact (issue 32): dimmed as history, and without reply, delete or reaction, which
   * act on this ticket (the server quotes only a message of the ticket written in).
   */
  earlier?: boolean;
  onReply: (message: MessageDto) => void;
  onDelete: (message: MessageDto) => void;
  /** Reacts to the message (an empty emoji removes the reaction); absent: no reaction button (the ticket is not open). */
  onReact?: (message: MessageDto, emoji: string) => void;
  /** The reactions on the message: the latest of this side (`mine`, marked in the picker) and of the contact. */
  reactions?: { mine?: string; theirs?: string };
  /** The message a search hit opened (issue 33 item 3): marked until another is. */
  highlighted?: boolean;
}

/** The reaction button beside a bubble and, once clicked, its short choice of emojis (issue 18). */
function ReactionPicker({ message, mine, reaction, onReact }: { message: MessageDto; mine: boolean; reaction?: string; onReact: (message: MessageDto, emoji: string) => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (emoji: string) => {
    setAnchor(null);
    onReact(message, emoji);
  };
  return (
    <>
      {/* A native button and tooltip: a screenful of these mounts with every chat opened. */}
      <button
        type="button"
        className={classes('message-react', styles.iconButton, styles.react, mine ? styles.reactMine : styles.reactTheirs, anchor && styles.reactOpen)}
        title={t('chat.message.react')}
        aria-label={t('chat.message.react')}
        aria-haspopup="true"
        data-testid="message-react"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AddReactionOutlinedIcon fontSize="inherit" />
      </button>
      {anchor && (
        <Popover
          open
          anchorEl={anchor}
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
          transformOrigin={{ vertical: 'bottom', horizontal: 'center' }}
          slotProps={{ paper: { sx: { borderRadius: 6 } } }}
        >
          <Box role="listbox" aria-label={t('chat.message.reactions')} data-testid="reaction-picker" sx={{ display: 'flex', alignItems: 'center', gap: 0.25, px: 1, py: 0.5 }}>
            {REACTION_EMOJIS.map((emoji) => (
              <Box
                key={emoji}
                component="button"
                type="button"
                role="option"
                aria-selected={reaction === emoji}
                aria-label={emoji}
                onClick={() => pick(reaction === emoji ? '' : emoji)}
                sx={{
                  fontSize: 24,
                  width: 40,
                  height: 40,
                  border: 0,
                  borderRadius: '50%',
                  cursor: 'pointer',
                  bgcolor: reaction === emoji ? 'action.selected' : 'transparent',
                  '&:hover': { bgcolor: 'action.hover', transform: 'scale(1.15)' },
                  transition: 'transform 120ms',
                }}
              >
                {emoji}
              </Box>
            ))}
          </Box>
          {reaction && (
            <Box sx={{ borderTop: 1, borderColor: 'divider', display: 'flex', justifyContent: 'center' }}>
              <Button size="small" color="inherit" onClick={() => pick('')} data-testid="reaction-remove" sx={{ flex: 1, textTransform: 'none', fontSize: 13, borderRadius: 0 }}>
                {t('chat.message.removeReaction')} {reaction}
              </Button>
            </Box>
          )}
        </Popover>
      )}
    </>
  );
}

/** The class names given, skipping the false ones. */
function classes(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

export const MessageBubble = memo(function MessageBubble({ message, isGroup, earlier = false, onReply, onDelete, onReact, reactions, highlighted = false }: MessageBubbleProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mine = message.fromMe;
  // An internal note (issue 36 §1): the team's, never sent to the contact; no delivery state, no reaction.
  const note = message.private;
  const { user } = useAuth();
  // A note is deleted by its author or an admin (the server's rule); any message of the desk otherwise.
  const mayDelete = mine && (!note || isAdmin(user) || message.sentBy?.id === user?.id);
  // Greeting, queue menu, farewell, protocol: sent by the desk, not typed by an attendant; bot: the Typebot chatbot.
  const auto = message.senderKind === 'auto' || message.senderKind === 'bot';
  // Where a message not typed in this chat came from (a bulk send, the send API, the chatbot, the phone…): one label
  // beside the time, the chatbot's and the desk's own included.
  const origin = messageOrigin(message);
  const originText = originLabel(t, message);
  const sender = isGroup && !mine ? (message.participantName ?? message.contact?.name) : null;
  const shown = message.isDeleted ? [] : [reactions?.theirs, reactions?.mine].filter((e): e is string => !!e);
  // Reply and delete are this ticket's; an earlier ticket's message has no options; a note only Delete, for whoever may.
  const options = !message.isDeleted && !earlier && (!note || mayDelete);
  return (
    <div className={classes(styles.row, mine && styles.rowMine, shown.length > 0 && styles.rowReacted, earlier && styles.rowEarlier)} data-earlier={earlier ? 'true' : undefined}>
      <div
        data-testid="message"
        data-message-id={message.id}
        data-from-me={mine ? 'true' : 'false'}
        data-sender-kind={message.senderKind}
        data-private={note ? 'true' : undefined}
        data-highlighted={highlighted ? 'true' : undefined}
        className={classes(styles.bubble, mine && styles.mine, auto && styles.auto, note && styles.note, highlighted && styles.highlighted)}
      >
        {options && onReact && !note && !isReaction(message) && <ReactionPicker message={message} mine={mine} reaction={reactions?.mine} onReact={onReact} />}
        {shown.length > 0 && (
          <div data-testid="message-reactions" aria-label={t('chat.message.reactions')} className={classes(styles.reactions, mine && styles.reactionsMine)}>
            {shown.map((emoji, i) => (
              <span key={i}>{emoji}</span>
            ))}
          </div>
        )}
        {options && (
          <button type="button" className={classes('message-menu', styles.iconButton, styles.menu)} aria-label={t('chat.message.options')} onClick={(e) => setAnchor(e.currentTarget)}>
            <ExpandMoreIcon fontSize="inherit" />
          </button>
        )}
        {note && (
          <span className={classes(styles.caption, styles.noteHeader)} data-testid="note-header">
            <StickyNote2OutlinedIcon className={styles.autoIcon} />
            {t('chat.note.header', { name: message.sentBy?.name ?? t('chat.note.someone') })}
          </span>
        )}
        {sender && <span className={classes(styles.caption, styles.sender)}>{sender}</span>}
        {message.quotedMsg && !message.isDeleted && <QuotedMessage quoted={message.quotedMsg} />}
        {message.isDeleted ? (
          <div className={styles.deleted} data-testid="message-deleted">
            <BlockIcon sx={{ fontSize: 16 }} />
            {t('chat.message.deleted')}
          </div>
        ) : (
          <>
            {message.mediaType && (
              <div className={styles.media}>
                <MessageMedia message={message} />
              </div>
            )}
            {showsBody(message) && (
              <MessageText body={message.body} />
            )}
          </>
        )}
        <div className={styles.time}>
          {originText && (
            <>
              <span className={classes(styles.origin, auto && styles.originAuto)} data-testid="message-origin" data-origin={origin ?? undefined}>
                {auto && <SmartToyOutlinedIcon className={styles.autoIcon} />}
                {/* The labels the chatbot's and the desk's messages had before origins (their tests find them so). */}
                <span data-testid={origin === 'bot' ? 'bot-label' : origin === 'system' ? 'automatic-label' : undefined}>{originText}</span>
              </span>
              <span aria-hidden="true"> · </span>
            </>
          )}
          <span data-testid="message-time">{formatTime(message.createdAt)}</span>
          {mine && !note && <AckIcon ack={message.ack} />}
        </div>
        {message.sendError && (
          <span className={classes(styles.caption, styles.sendError)} data-testid="message-send-error">
            <ErrorOutlineIcon sx={{ fontSize: 14 }} />
            {t('chat.sendError', { error: message.sendError })}
          </span>
        )}
        {anchor && (
        <Menu anchorEl={anchor} open onClose={() => setAnchor(null)}>
          {/* A reply quotes its message to the contact's phone: never a note. */}
          {!note && (
            <MenuItem
              onClick={() => {
                setAnchor(null);
                onReply(message);
              }}
            >
              {t('chat.message.reply')}
            </MenuItem>
          )}
          {mayDelete && (
            <MenuItem
              onClick={() => {
                setAnchor(null);
                onDelete(message);
              }}
            >
              {t('chat.message.delete')}
            </MenuItem>
          )}
        </Menu>
        )}
      </div>
    </div>
  );
});
