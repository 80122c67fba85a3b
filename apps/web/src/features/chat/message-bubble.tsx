import type { MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import BlockIcon from '@mui/icons-material/Block';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DoneIcon from '@mui/icons-material/Done';
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
}

export const MessageBubble = memo(function MessageBubble({ message, isGroup, onReply, onDelete }: MessageBubbleProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mine = message.fromMe;
  // Greeting, queue menu, farewell, protocol: sent by the desk, not typed by an attendant.
  const auto = message.senderKind === 'auto';
  const sender = isGroup && !mine ? (message.participantName ?? message.contact?.name) : null;
  return (
    <Box sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', px: { xs: 1, sm: 2 }, py: 0.25 }}>
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
          '&:hover .message-menu, & .message-menu:focus-visible': { opacity: 1 },
        }}
      >
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
            data-testid="automatic-label"
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600, color: '#4a6a86', pr: 3, fontSize: 11 }}
          >
            <SmartToyOutlinedIcon sx={{ fontSize: 14 }} />
            {t('chat.automatic')}
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
