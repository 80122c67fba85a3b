import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import MoodIcon from '@mui/icons-material/Mood';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpenedOnce } from '../tickets/use-opened-once';

/** The picker itself, its font and its data: fetched when the button is first pressed, not with the chat. */
const EmojiPanel = lazy(() => import('./emoji-panel'));

/** The emoji button of the message input and its picker (see EmojiPanel). */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const mounted = useOpenedOnce(!!anchor);
  return (
    <>
      <IconButton aria-label={t('chat.input.emoji')} disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)}>
        <MoodIcon />
      </IconButton>
      {mounted && (
        <Popover
          open={!!anchor}
          anchorEl={anchor}
          onClose={() => setAnchor(null)}
          keepMounted
          anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
          transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        >
          <Suspense
            fallback={
              <Box sx={{ width: 360, height: 400, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                <CircularProgress aria-label={t('common.loading')} />
              </Box>
            }
          >
            <EmojiPanel onPick={onPick} />
          </Suspense>
        </Popover>
      )}
    </>
  );
}
