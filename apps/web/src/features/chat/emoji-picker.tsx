import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import MoodIcon from '@mui/icons-material/Mood';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const EMOJIS = [
  '😀', '😃', '😄', '😁', '😆', '😅', '😂', '🤣', '😊', '😇', '🙂', '😉', '😍', '🥰', '😘', '😋',
  '😎', '🤩', '🤔', '🤨', '😐', '😶', '🙄', '😏', '😴', '😌', '😛', '😜', '🤗', '🤭', '🤫', '😬',
  '😢', '😭', '😤', '😠', '😡', '🤯', '😳', '😱', '😨', '😓', '🥺', '😷', '🤒', '🤝', '👍', '👎',
  '👏', '🙌', '🙏', '💪', '👋', '✌️', '👌', '🤞', '👀', '❤️', '🧡', '💛', '💚', '💙', '💜', '🖤',
  '💔', '💯', '🔥', '✨', '🎉', '🎁', '✅', '❌', '⚠️', '❓', '❗', '📞', '📱', '💬', '📎', '📷',
  '📅', '⏰', '🕒', '🚀', '💰', '🛒', '📦', '🚚', '🏠', '☕', '🍕', '🌟', '☀️', '🌧️', '😺', '🙈',
];

/** A small built-in emoji grid. */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton aria-label={t('chat.input.emoji')} disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)}>
        <MoodIcon />
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(8, 36px)', p: 1 }} role="listbox" aria-label={t('chat.input.emoji')}>
          {EMOJIS.map((emoji) => (
            <Box
              key={emoji}
              component="button"
              type="button"
              role="option"
              aria-selected={false}
              onClick={() => onPick(emoji)}
              sx={{ fontSize: 22, width: 36, height: 36, border: 0, bgcolor: 'transparent', cursor: 'pointer', borderRadius: 1, '&:hover': { bgcolor: 'action.hover' } }}
            >
              {emoji}
            </Box>
          ))}
        </Box>
      </Popover>
    </>
  );
}
