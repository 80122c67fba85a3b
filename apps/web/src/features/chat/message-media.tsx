import { formatDuration, type MessageDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import PersonIcon from '@mui/icons-material/Person';
import PlaceIcon from '@mui/icons-material/Place';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SPEEDS = [0.5, 1, 1.5, 2] as const;
export const AUDIO_SPEED_KEY = 'audioPlaybackRate';

function savedSpeed(): number {
  const v = Number(localStorage.getItem(AUDIO_SPEED_KEY));
  return (SPEEDS as readonly number[]).includes(v) ? v : 1;
}

/**
 * A voice note or audio: the browser's player, the speed, and the length known from the message (issue 33 item 6: the
 * player says 0:00 until it has loaded the file; the stored length shows at once).
 */
export function AudioPlayer({ src, seconds }: { src: string; seconds?: number | null }) {
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
      {!!seconds && (
        <Typography variant="caption" color="text.secondary" data-testid="audio-duration" aria-label={t('chat.media.duration', { duration: formatDuration(seconds) })} sx={{ minWidth: 32, textAlign: 'center' }}>
          {formatDuration(seconds)}
        </Typography>
      )}
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
      return url ? <AudioPlayer src={url} seconds={message.mediaDuration} /> : null;
    case 'video':
      return url ? <Box component="video" src={url} controls preload="metadata" sx={{ display: 'block', maxWidth: '100%', width: 300, borderRadius: 1 }} /> : null;
    case 'location': {
      const place = parseLocation(message.body);
      const href = place ? `https://maps.google.com/maps?q=${place.lat}%2C${place.lng}&z=17` : undefined;
      // §2: image, link, description. The image is the thumbnail the phone sent (stored as mediaUrl), or a drawn map:
      // no tile server is called from the browser (issue 33 item 10).
      const picture = url ? (
        <Box component="img" src={url} alt={t('chat.media.location')} data-testid="location-thumbnail" sx={{ display: 'block', width: 240, maxWidth: '100%', height: 140, objectFit: 'cover', borderRadius: 1 }} />
      ) : (
        <MapGraphic label={t('chat.media.location')} />
      );
      return (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, width: 240, maxWidth: '100%' }} data-testid="location">
          {href ? (
            <Box component="a" href={href} target="_blank" rel="noopener noreferrer" sx={{ display: 'block', lineHeight: 0 }}>
              {picture}
            </Box>
          ) : (
            picture
          )}
          {place?.description && (
            <Typography variant="body2" sx={{ fontWeight: 500, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="location-description">
              {place.description}
            </Typography>
          )}
          {href ? (
            <Link href={href} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="location-link">
              <PlaceIcon fontSize="small" />
              {t('chat.media.openMap')}
            </Link>
          ) : (
            <Typography variant="body2">
              <PlaceIcon fontSize="small" sx={{ verticalAlign: 'middle' }} /> {message.body}
            </Typography>
          )}
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
      return <DocumentCard url={url} name={message.body.trim()} />;
    default:
      return null;
  }
}

/** A drawn map (streets, a park, a river and a pin), the location's picture when the phone sent no thumbnail. */
function MapGraphic({ label }: { label: string }) {
  return (
    <Box component="svg" viewBox="0 0 240 140" role="img" aria-label={label} data-testid="location-map" sx={{ display: 'block', width: '100%', height: 140, borderRadius: 1 }}>
      <rect width="240" height="140" fill="#e8eef1" />
      <rect x="150" y="8" width="70" height="48" rx="6" fill="#cfe8c9" />
      <path d="M0 112 C60 96 110 128 170 110 S230 96 240 100 L240 140 L0 140 Z" fill="#bcdcf2" />
      <g stroke="#ffffff" strokeWidth="9" fill="none" strokeLinecap="round">
        <path d="M-5 44 H245" />
        <path d="M70 -5 V150" />
        <path d="M-5 88 L245 70" />
        <path d="M135 -5 L175 150" />
      </g>
      <g stroke="#f6d58e" strokeWidth="5" fill="none">
        <path d="M-5 44 H245" />
      </g>
      <path d="M120 30 c-13 0 -22 9 -22 21 c0 16 22 37 22 37 s22 -21 22 -37 c0 -12 -9 -21 -22 -21 z" fill="#e53935" stroke="#b71c1c" strokeWidth="2" />
      <circle cx="120" cy="51" r="7" fill="#ffffff" />
    </Box>
  );
}

/** A byte count in the user's language: "12 KB", "1.4 MB". */
export function formatBytes(bytes: number, language: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(language, { style: 'unit', unit: units[unit], unitDisplay: 'short', maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 }).format(value);
}

/** The size of a stored file, from a HEAD request to its signed address (no size is stored with a message). */
function useFileSize(url: string): number | null {
  const [size, setSize] = useState<number | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch(url, { method: 'HEAD', signal: controller.signal })
      .then((res) => {
        const length = Number(res.headers.get('content-length'));
        if (res.ok && Number.isFinite(length) && length > 0) setSize(length);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [url]);
  return size;
}

/** A document as WhatsApp shows it: its icon, name and size, and a download (issue 33 item 6). */
function DocumentCard({ url, name }: { url: string; name: string }) {
  const { t, i18n } = useTranslation();
  const size = useFileSize(url);
  const extension = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, bgcolor: 'rgba(0,0,0,0.04)', borderRadius: 1, p: 1, width: 260, maxWidth: '100%' }} data-testid="document">
      <InsertDriveFileOutlinedIcon color="action" />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" noWrap title={name} sx={{ fontWeight: 500 }} data-testid="document-name">
          {name || t('chat.preview.file')}
        </Typography>
        <Typography variant="caption" color="text.secondary" data-testid="document-size">
          {[extension, size !== null ? formatBytes(size, i18n.language) : null].filter(Boolean).join(' · ')}
        </Typography>
      </Box>
      <IconButton size="small" href={url} download={name || true} target="_blank" rel="noopener noreferrer" aria-label={t('chat.media.download')}>
        <DownloadIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

/** Whether the body is shown as text under the media (captions), not replaced by it. */
export function showsBody(message: MessageDto): boolean {
  // A document's body is its name, shown on its card.
  if (message.mediaType === 'location' || message.mediaType === 'vcard' || message.mediaType === 'document' || message.mediaType === 'other') return false;
  if (message.mediaType && /^\[\w+\]$/.test(message.body.trim())) return false;
  return message.body.trim() !== '';
}
