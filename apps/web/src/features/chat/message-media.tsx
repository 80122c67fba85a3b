import type { MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import PersonIcon from '@mui/icons-material/Person';
import PlaceIcon from '@mui/icons-material/Place';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SPEEDS = [0.5, 1, 1.5, 2] as const;
export const AUDIO_SPEED_KEY = 'audioPlaybackRate';

function savedSpeed(): number {
  const v = Number(localStorage.getItem(AUDIO_SPEED_KEY));
  return (SPEEDS as readonly number[]).includes(v) ? v : 1;
}

export function AudioPlayer({ src }: { src: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState(savedSpeed);
  const next = () => {
    const value = SPEEDS[(SPEEDS.indexOf(speed as (typeof SPEEDS)[number]) + 1) % SPEEDS.length];
    setSpeed(value);
    localStorage.setItem(AUDIO_SPEED_KEY, String(value));
    if (ref.current) ref.current.playbackRate = value;
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <audio
        ref={ref}
        controls
        preload="metadata"
        src={src}
        onLoadedMetadata={(e) => {
          e.currentTarget.playbackRate = speed;
        }}
        onPlay={(e) => {
          e.currentTarget.playbackRate = speed;
        }}
        style={{ maxWidth: 260, height: 40 }}
      />
      <Button size="small" variant="outlined" onClick={next} aria-label={t('chat.media.speed')} sx={{ minWidth: 44, px: 0.5, py: 0 }}>
        {speed}x
      </Button>
    </Box>
  );
}

/** "lat,lng|description" (or lat,lng alone); anything else gives null. */
export function parseLocation(body: string): { lat: string; lng: string; description: string } | null {
  const [coords, ...rest] = body.split('|');
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)/.exec(coords ?? '');
  if (!m) return null;
  return { lat: m[1], lng: m[2], description: rest.join('|').trim() };
}

export function parseVcard(body: string): { name: string; number: string } {
  const name = /^FN[^:]*:(.+)$/im.exec(body)?.[1]?.trim() ?? /^N[^:]*:(.+)$/im.exec(body)?.[1]?.replace(/;/g, ' ').trim() ?? '';
  const number = /waid=(\d+)/i.exec(body)?.[1] ?? /^TEL[^:]*:(.+)$/im.exec(body)?.[1]?.trim() ?? '';
  return { name, number };
}

/** The media part of a message (§2 Chat screen "Media"). Returns null when the message has none. */
export function MessageMedia({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const [large, setLarge] = useState(false);
  const url = message.mediaUrl ?? '';
  switch (message.mediaType) {
    case 'image':
    case 'sticker':
      if (!url) return null;
      return (
        <>
          <Box
            component="img"
            src={url}
            alt={t('chat.media.image')}
            loading="lazy"
            onClick={() => setLarge(true)}
            sx={{ display: 'block', maxWidth: '100%', width: message.mediaType === 'sticker' ? 140 : 260, maxHeight: 260, objectFit: 'cover', borderRadius: 1, cursor: 'zoom-in', bgcolor: 'action.hover' }}
          />
          <Dialog open={large} onClose={() => setLarge(false)} maxWidth="lg">
            <Box component="img" src={url} alt={t('chat.media.image')} onClick={() => setLarge(false)} sx={{ display: 'block', maxWidth: '90vw', maxHeight: '90vh' }} />
          </Dialog>
        </>
      );
    case 'audio':
      return url ? <AudioPlayer src={url} /> : null;
    case 'video':
      return url ? <Box component="video" src={url} controls preload="metadata" sx={{ display: 'block', maxWidth: '100%', width: 300, borderRadius: 1 }} /> : null;
    case 'location': {
      const place = parseLocation(message.body);
      const href = place ? `https://maps.google.com/maps?q=${place.lat}%2C${place.lng}&z=17` : undefined;
      return (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {url && <Box component="img" src={url} alt={t('chat.media.location')} sx={{ width: 220, maxWidth: '100%', borderRadius: 1 }} />}
          {href ? (
            <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <PlaceIcon fontSize="small" />
              {t('chat.media.openMap')}
            </Link>
          ) : (
            <Typography variant="body2">
              <PlaceIcon fontSize="small" sx={{ verticalAlign: 'middle' }} /> {message.body}
            </Typography>
          )}
          {place?.description && <Typography variant="body2">{place.description}</Typography>}
        </Box>
      );
    }
    case 'vcard': {
      const card = parseVcard(message.body);
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 180 }}>
          <PersonIcon color="action" />
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {card.name || t('chat.media.contact')}
            </Typography>
            {card.number && (
              <Link variant="body2" href={`tel:+${card.number.replace(/\D/g, '')}`}>
                {card.number}
              </Link>
            )}
          </Box>
        </Box>
      );
    }
    case 'document':
    case 'other':
      if (!url) return null;
      return (
        <Button variant="outlined" size="small" startIcon={<DownloadIcon />} href={url} download target="_blank" rel="noopener noreferrer">
          {t('chat.media.download')}
        </Button>
      );
    default:
      return null;
  }
}

/** Whether the body is shown as text under the media (captions), not replaced by it. */
export function showsBody(message: MessageDto): boolean {
  if (message.mediaType === 'location' || message.mediaType === 'vcard') return false;
  if (message.mediaType && /^\[\w+\]$/.test(message.body.trim())) return false;
  return message.body.trim() !== '';
}
