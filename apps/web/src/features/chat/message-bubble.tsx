import { isReaction, REACTION_EMOJIS, type MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import AddReactionOutlinedIcon from '@mui/icons-material/AddReactionOutlined';
import BlockIcon from '@mui/icons-material/Block';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DoneIcon from '@mui/icons-material/Done';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, renderMarkdown, renderQuotedBody } from '../tickets/format';
import { MessageMedia, showsBody } from './message-media';

export const BUBBLE_MAX_WIDTH = 600;

/** §4 delivery ack: 0 clock, 1 tick, 2 double tick, 3–4 coloured double tick. */
export function AckIcon({ ack }: { ack: number }) {
  const sx = { fontSize: 16, ml: 0.5, verticalAlign: 'middle' };
  if (ack <= 0) return <AccessTimeIcon sx={sx} data-testid="ack-0" />;
  if (ack === 1) return <DoneIcon sx={sx} data-testid="ack-1" />;
  if (ack === 2) return <DoneAllIcon sx={sx} data-testid="ack-2" />;
  return <DoneAllIcon sx={{ ...sx, color: '#34b7f1' }} data-testid={`ack-${ack}`} />;
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

export interface MessageBubbleProps {
  message: MessageDto;
  isGroup: boolean;
  onReply: (message: MessageDto) => void;
  onDelete: (message: MessageDto) => void;
  /** Reacts to the message (an empty emoji removes the reaction); absent: no reaction button (the ticket is not open). */
  onReact?: (message: MessageDto, emoji: string) => void;
  /** The reactions on the message: the latest of this side (`mine`, marked in the picker) and of the contact. */
  reactions?: { mine?: string; theirs?: string };
}

/** The reaction button beside a bubble and its short choice of emojis (issue 18). */
function ReactionPicker({ message, mine, reaction, onReact }: { message: MessageDto; mine: boolean; reaction?: string; onReact: (message: MessageDto, emoji: string) => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (emoji: string) => {
    setAnchor(null);
    onReact(message, emoji);
  };
  return (
    <>
      <Tooltip title={t('chat.message.react')}>
        <IconButton
          className="message-react"
          size="small"
          aria-label={t('chat.message.react')}
          aria-haspopup="true"
          data-testid="message-react"
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{
            position: 'absolute',
            top: '50%',
            transform: 'translateY(-50%)',
            ...(mine ? { left: -34 } : { right: -34 }),
            p: 0.5,
            opacity: { xs: 0.6, md: anchor ? 1 : 0 },
            bgcolor: '#ffffffd9',
            boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
            '&:hover': { bgcolor: '#ffffff' },
          }}
        >
          <AddReactionOutlinedIcon sx={{ fontSize: 18 }} />
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
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
    </>
  );
}

export const MessageBubble = memo(function MessageBubble({ message, isGroup, onReply, onDelete, onReact, reactions }: MessageBubbleProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mine = message.fromMe;
  // Greeting, queue menu, farewell, protocol: sent by the desk, not typed by an attendant; bot: the Typebot chatbot.
  const bot = message.senderKind === 'bot';
  const auto = message.senderKind === 'auto' || bot;
  const sender = isGroup && !mine ? (message.participantName ?? message.contact?.name) : null;
  const shown = message.isDeleted ? [] : [reactions?.theirs, reactions?.mine].filter((e): e is string => !!e);
  return (
    <Box sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', px: { xs: 1, sm: 2 }, pt: 0.25, pb: shown.length > 0 ? 2 : 0.25 }}>
      <Box
        data-testid="message"
        data-message-id={message.id}
        data-from-me={mine ? 'true' : 'false'}
        data-sender-kind={message.senderKind}
        sx={{
          position: 'relative',
          maxWidth: { xs: '85%', md: BUBBLE_MAX_WIDTH },
          minWidth: 90,
          bgcolor: auto ? '#eef3f8' : mine ? '#d9fdd3' : 'background.paper',
          border: auto ? '1px dashed #9fb3c8' : undefined,
          borderRadius: 2,
          borderTopRightRadius: mine ? 0 : 8,
          borderTopLeftRadius: mine ? 8 : 0,
          boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
          px: 1,
          pt: 0.5,
          pb: 0.25,
          // Shown on hover, and when reached with the keyboard.
          '&:hover .message-menu, & .message-menu:focus-visible, &:hover .message-react, & .message-react:focus-visible': { opacity: 1 },
        }}
      >
        {!message.isDeleted && onReact && !isReaction(message) && <ReactionPicker message={message} mine={mine} reaction={reactions?.mine} onReact={onReact} />}
        {shown.length > 0 && (
          <Box
            data-testid="message-reactions"
            aria-label={t('chat.message.reactions')}
            sx={{
              position: 'absolute',
              bottom: -14,
              ...(mine ? { right: 8 } : { left: 8 }),
              display: 'flex',
              gap: 0.25,
              px: 0.5,
              height: 24,
              alignItems: 'center',
              fontSize: 15,
              lineHeight: 1,
              bgcolor: 'background.paper',
              borderRadius: 3,
              boxShadow: '0 1px 2px rgba(11,20,26,.2)',
            }}
          >
            {shown.map((emoji, i) => (
              <span key={i}>{emoji}</span>
            ))}
          </Box>
        )}
        {!message.isDeleted && (
          <IconButton
            className="message-menu"
            size="small"
            aria-label={t('chat.message.options')}
            onClick={(e) => setAnchor(e.currentTarget)}
            sx={{ position: 'absolute', top: 0, right: 0, p: 0.25, opacity: { xs: 0.6, md: 0 }, bgcolor: 'inherit', '&:hover': { bgcolor: 'inherit' } }}
          >
            <ExpandMoreIcon fontSize="small" />
          </IconButton>
        )}
        {sender && (
          <Typography variant="caption" sx={{ display: 'block', fontWeight: 600, color: 'secondary.main', pr: 3 }}>
            {sender}
          </Typography>
        )}
        {auto && (
          <Typography
            variant="caption"
            data-testid={bot ? 'bot-label' : 'automatic-label'}
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600, color: '#4a6a86', pr: 3, fontSize: 11 }}
          >
            <SmartToyOutlinedIcon sx={{ fontSize: 14 }} />
            {t(bot ? 'chat.bot' : 'chat.automatic')}
          </Typography>
        )}
        {message.quotedMsg && !message.isDeleted && <QuotedMessage quoted={message.quotedMsg} />}
        {message.isDeleted ? (
          <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic', display: 'flex', alignItems: 'center', gap: 0.5, pr: 1 }} data-testid="message-deleted">
            <BlockIcon sx={{ fontSize: 16 }} />
            {t('chat.message.deleted')}
          </Typography>
        ) : (
          <>
            {message.mediaType && (
              <Box sx={{ pt: 0.5, pr: 2.5 }}>
                <MessageMedia message={message} />
              </Box>
            )}
            {showsBody(message) && (
              <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', pr: 2 }} data-testid="message-body">
                {renderMarkdown(message.body)}
              </Typography>
            )}
          </>
        )}
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'right', fontSize: 11, lineHeight: 1.6 }}>
          {formatTime(message.createdAt)}
          {mine && <AckIcon ack={message.ack} />}
        </Typography>
        {message.sendError && (
          <Typography variant="caption" color="error" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pr: 1 }} data-testid="message-send-error">
            <ErrorOutlineIcon sx={{ fontSize: 14 }} />
            {t('chat.sendError', { error: message.sendError })}
          </Typography>
        )}
        {anchor && (
        <Menu anchorEl={anchor} open onClose={() => setAnchor(null)}>
          <MenuItem
            onClick={() => {
              setAnchor(null);
              onReply(message);
            }}
          >
            {t('chat.message.reply')}
          </MenuItem>
          {mine && (
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
      </Box>
    </Box>
  );
});
