import type { SimulatorOutboxItemDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddLocationAltIcon from '@mui/icons-material/AddLocationAlt';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import PlaceIcon from '@mui/icons-material/Place';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SendIcon from '@mui/icons-material/Send';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../services/dates';
import { toastError } from '../../services/toast-error';
import { MAX_MEDIA_BYTES, mediaTypeOf, readAsDataUrl } from './media-file';
import { sendInbound, setAck, useOutbox } from './simulator-api';

/** Who the simulated customer is and where they write: a private chat, or a group. */
export interface SimulatorChatTarget {
  number: string;
  name: string;
  group?: { id: string; name: string };
}

/** A message the customer sent from this page (kept in the page's memory). */
export interface CustomerMessage {
  id: string;
  body: string;
  mediaType?: string;
  mediaUrl?: string;
  fileName?: string;
  createdAt: string;
  state: 'sending' | 'sent' | 'failed';
}

/** What a location or contact card the customer sent reads as in their bubble. */
function sharedText(mediaType: string | undefined | null, body: string): string | null {
  if (mediaType === 'location') {
    const [coords = '', description] = body.split('|');
    return `${description?.trim() ? `${description.trim()} ` : ''}(${coords.trim()})`;
  }
  if (mediaType === 'vcard') {
    const name = /^FN:(.*)$/m.exec(body)?.[1]?.trim() ?? '';
    const tel = /waid=(\d+)/.exec(body)?.[1];
    return `${name}${tel ? ` · +${tel}` : ''}`;
  }
  return null;
}

/** A contact card as WhatsApp sends it (vCard 3.0, the number as `waid`). */
export function contactCard(name: string, number: string): string {
  const digits = number.replace(/\D/g, '');
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name.trim()}`, `TEL;type=CELL;waid=${digits}:+${digits}`, 'END:VCARD'].join('\n');
}

type ShareKind = 'location' | 'vcard';

/** The customer shares a location or a contact card, as the WhatsApp app lets them (issue 33 item 25). */
function ShareDialog({ kind, onClose, onSend }: { kind: ShareKind | null; onClose: () => void; onSend: (mediaType: ShareKind, body: string) => void }) {
  const { t } = useTranslation();
  const [latitude, setLatitude] = useState('-23.561414');
  const [longitude, setLongitude] = useState('-46.655881');
  const [description, setDescription] = useState('');
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const lat = Number(latitude);
  const lng = Number(longitude);
  const locationValid = latitude.trim() !== '' && longitude.trim() !== '' && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  const cardValid = name.trim().length > 0 && number.replace(/\D/g, '').length >= 8;
  const valid = kind === 'location' ? locationValid : cardValid;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!kind || !valid) return;
    onSend(kind, kind === 'location' ? `${lat},${lng}${description.trim() ? `|${description.trim()}` : ''}` : contactCard(name, number));
    onClose();
  };

  return (
    <Dialog open={kind !== null} onClose={onClose} maxWidth="xs" fullWidth>
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle>{kind === 'vcard' ? t('simulator.share.vcardTitle') : t('simulator.share.locationTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {kind === 'location' ? (
            <>
              <Stack direction="row" spacing={1}>
                <TextField
                  label={t('simulator.share.latitude')}
                  value={latitude}
                  onChange={(e) => setLatitude(e.target.value)}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  error={latitude.trim() === '' || !(Math.abs(lat) <= 90)}
                />
                <TextField
                  label={t('simulator.share.longitude')}
                  value={longitude}
                  onChange={(e) => setLongitude(e.target.value)}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  error={longitude.trim() === '' || !(Math.abs(lng) <= 180)}
                />
              </Stack>
              <TextField label={t('simulator.share.description')} value={description} onChange={(e) => setDescription(e.target.value)} autoFocus />
            </>
          ) : (
            <>
              <TextField label={t('simulator.share.name')} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
              <TextField
                label={t('simulator.share.number')}
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                slotProps={{ htmlInput: { inputMode: 'tel' } }}
                placeholder="+55 11 95555-4444"
              />
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!valid}>
            {t('simulator.share.send')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

type ChatItem = { kind: 'customer'; message: CustomerMessage } | { kind: 'desk'; message: SimulatorOutboxItemDto };


function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const label = t(`simulator.ack.${Math.min(Math.max(ack, 0), 4)}`);
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  const icon =
    ack <= 0 ? (
      <ScheduleIcon sx={sx} />
    ) : ack === 1 ? (
      <DoneIcon sx={sx} />
    ) : ack === 2 ? (
      <DoneAllIcon sx={sx} />
    ) : (
      <DoneAllIcon sx={{ ...sx, color: 'info.main' }} />
    );
  return (
    <Tooltip title={label}>
      <Box component="span" role="img" aria-label={label} data-testid="desk-ack" data-ack={ack} sx={{ lineHeight: 0 }}>
        {icon}
      </Box>
    </Tooltip>
  );
}

function Media({ mediaType, mediaUrl, fileName }: { mediaType?: string | null; mediaUrl?: string | null; fileName?: string }) {
  const { t } = useTranslation();
  if (!mediaUrl) return null;
  if (mediaType === 'image' || mediaType === 'sticker')
    return <Box component="img" src={mediaUrl} alt="" sx={{ display: 'block', maxWidth: '100%', maxHeight: 240, borderRadius: 1, mb: 0.5 }} />;
  if (mediaType === 'audio') return <Box component="audio" controls src={mediaUrl} sx={{ display: 'block', maxWidth: '100%', mb: 0.5 }} />;
  if (mediaType === 'video')
    return <Box component="video" controls src={mediaUrl} sx={{ display: 'block', maxWidth: '100%', maxHeight: 240, mb: 0.5 }} />;
  return (
    <Link href={mediaUrl} download={fileName ?? true} target="_blank" rel="noreferrer" sx={{ display: 'block', mb: 0.5 }}>
      {fileName ?? t('simulator.chat.download')}
    </Link>
  );
}

function Bubble({ item, whatsappId }: { item: ChatItem; whatsappId: number }) {
  const { t } = useTranslation();
  const [marking, setMarking] = useState(false);
  const mine = item.kind === 'customer';
  const m = item.message;
  const deleted = item.kind === 'desk' && item.message.isDeleted;
  const shared = item.kind === 'customer' ? sharedText(m.mediaType, m.body) : null;

  const markRead = () => {
    if (item.kind !== 'desk') return;
    setMarking(true);
    setAck(whatsappId, item.message.id, 3)
      .catch(toastError)
      .finally(() => setMarking(false));
  };

  return (
    <Box
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}
      data-testid={mine ? 'customer-message' : 'desk-message'}
    >
      <Paper
        elevation={0}
        sx={{
          px: 1.25,
          py: 0.75,
          maxWidth: { xs: '85%', sm: 480 },
          bgcolor: mine ? '#dcf8c6' : 'background.paper',
          border: 1,
          borderColor: mine ? 'transparent' : 'divider',
          overflowWrap: 'anywhere',
        }}
      >
        <Media mediaType={m.mediaType} mediaUrl={m.mediaUrl} fileName={item.kind === 'customer' ? item.message.fileName : undefined} />
        {shared !== null ? (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            {m.mediaType === 'location' ? <PlaceIcon fontSize="small" color="action" /> : <ContactPhoneIcon fontSize="small" color="action" />}
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="customer-shared">
              {shared}
            </Typography>
          </Stack>
        ) : m.body && (
          <Typography
            variant="body2"
            sx={{ whiteSpace: 'pre-wrap', fontStyle: deleted ? 'italic' : undefined, color: deleted ? 'text.secondary' : undefined }}
          >
            {deleted ? t('simulator.chat.deleted') : m.body}
          </Typography>
        )}
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', color: 'text.secondary' }}>
          <Typography variant="caption">{formatTime(m.createdAt)}</Typography>
          {item.kind === 'desk' && <AckIcon ack={item.message.ack} />}
          {item.kind === 'customer' && item.message.state === 'sending' && <ScheduleIcon sx={{ fontSize: 14 }} />}
          {item.kind === 'customer' && item.message.state === 'failed' && (
            <ErrorOutlineIcon color="error" sx={{ fontSize: 14 }} aria-label={t('simulator.chat.failed')} />
          )}
        </Stack>
        {item.kind === 'desk' && item.message.ack < 3 && !deleted && (
          <Button size="small" sx={{ mt: 0.25, py: 0, minWidth: 0, fontSize: 12 }} disabled={marking} onClick={markRead}>
            {t('simulator.chat.markRead')}
          </Button>
        )}
      </Paper>
    </Box>
  );
}

export interface SimulatorChatProps {
  whatsappId: number;
  connected: boolean;
  target: SimulatorChatTarget;
  sent: CustomerMessage[];
  onSentChange: (update: (messages: CustomerMessage[]) => CustomerMessage[]) => void;
}

/** The customer's side of one chat: what they sent, the desk's replies, and a composer. */
export function SimulatorChat({ whatsappId, connected, target, sent, onSentChange }: SimulatorChatProps) {
  const { t } = useTranslation();
  const to = target.group?.id ?? target.number;
  const { data: outbox = [], refetch, isLoading } = useOutbox(whatsappId, to);
  const [text, setText] = useState('');
  const [markingAll, setMarkingAll] = useState(false);
  const [shareMenu, setShareMenu] = useState<HTMLElement | null>(null);
  const [sharing, setSharing] = useState<ShareKind | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const items: ChatItem[] = [
    ...sent.map((message): ChatItem => ({ kind: 'customer', message })),
    ...outbox.map((message): ChatItem => ({ kind: 'desk', message })),
  ].sort((a, b) => a.message.createdAt.localeCompare(b.message.createdAt));
  const unread = outbox.filter((m) => m.ack < 3 && !m.isDeleted);

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [items.length]);

  const send = (message: Omit<CustomerMessage, 'id' | 'createdAt' | 'state'>) => {
    const id = `SIM-UI-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const local: CustomerMessage = { ...message, id, createdAt: new Date().toISOString(), state: 'sending' };
    onSentChange((list) => [...list, local]);
    const mark = (state: CustomerMessage['state']) =>
      onSentChange((list) => list.map((m) => (m.id === id ? { ...m, state } : m)));
    sendInbound(whatsappId, {
      id,
      from: target.number,
      name: target.name || undefined,
      body: message.body,
      mediaType: message.mediaType as 'image' | 'audio' | 'video' | 'document' | ShareKind | undefined,
      mediaUrl: message.mediaUrl,
      groupId: target.group?.id,
      groupName: target.group?.name,
    })
      .then(() => mark('sent'))
      .catch((err: unknown) => {
        mark('failed');
        toastError(err);
      });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    setText('');
    send({ body });
  };

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > MAX_MEDIA_BYTES) {
      toastError(new Error(t('simulator.chat.fileTooBig')));
      return;
    }
    readAsDataUrl(file)
      .then((mediaUrl) => send({ body: text.trim(), mediaType: mediaTypeOf(file.type), mediaUrl, fileName: file.name }))
      .then(() => setText(''))
      .catch(toastError);
  };

  const markAllRead = () => {
    setMarkingAll(true);
    Promise.all(unread.map((m) => setAck(whatsappId, m.id, 3)))
      .then(() => refetch())
      .catch(toastError)
      .finally(() => setMarkingAll(false));
  };

  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height: { xs: 520, md: 'calc(100vh - 150px)' }, minHeight: 420 }} data-testid="simulator-chat">
      <Stack
        direction="row"
        spacing={1}
        sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider', alignItems: 'center' }}
      >
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" noWrap sx={{ fontWeight: 600 }}>
            {target.group ? target.group.name : target.name || target.number}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {target.group
              ? t('simulator.chat.asMember', { name: target.name || target.number })
              : target.name
                ? target.number
                : t('simulator.chat.customer')}
          </Typography>
        </Box>
        <Button size="small" disabled={unread.length === 0 || markingAll} onClick={markAllRead} startIcon={<DoneAllIcon />}>
          {t('simulator.chat.markAllRead')}
        </Button>
      </Stack>
      <Box
        ref={listRef}
        sx={{ flexGrow: 1, overflowY: 'auto', p: 1.5, bgcolor: 'action.hover', display: 'flex', flexDirection: 'column', gap: 1 }}
        aria-live="polite"
        data-testid="simulator-messages"
      >
        {isLoading && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('common.loading')} />
          </Box>
        )}
        {!isLoading && items.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ m: 'auto', textAlign: 'center', px: 2 }}>
            {t('simulator.chat.empty')}
          </Typography>
        )}
        {items.map((item) => (
          <Bubble key={`${item.kind}-${item.message.id}`} item={item} whatsappId={whatsappId} />
        ))}
      </Box>
      <Box
        component="form"
        onSubmit={onSubmit}
        sx={{ display: 'flex', gap: 1, p: 1, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}
      >
        <input
          ref={fileInput}
          type="file"
          hidden
          accept="image/*,audio/*,video/*,application/pdf,.doc,.docx,.xls,.xlsx,.txt,.zip"
          onChange={onFile}
          data-testid="simulator-file"
        />
        <IconButton aria-label={t('simulator.chat.attach')} disabled={!connected} onClick={() => fileInput.current?.click()}>
          <AttachFileIcon />
        </IconButton>
        <IconButton aria-label={t('simulator.share.open')} aria-haspopup="menu" disabled={!connected} onClick={(e) => setShareMenu(e.currentTarget)}>
          <AddLocationAltIcon />
        </IconButton>
        <Menu anchorEl={shareMenu} open={shareMenu !== null} onClose={() => setShareMenu(null)}>
          {(['location', 'vcard'] as const).map((kind) => (
            <MenuItem
              key={kind}
              onClick={() => {
                setShareMenu(null);
                setSharing(kind);
              }}
            >
              <ListItemIcon>{kind === 'location' ? <PlaceIcon fontSize="small" /> : <ContactPhoneIcon fontSize="small" />}</ListItemIcon>
              {t(`simulator.share.${kind}`)}
            </MenuItem>
          ))}
        </Menu>
        <ShareDialog kind={sharing} onClose={() => setSharing(null)} onSend={(mediaType, body) => send({ body, mediaType })} />
        <TextField
          size="small"
          fullWidth
          multiline
          maxRows={5}
          placeholder={connected ? t('simulator.chat.placeholder') : t('simulator.chat.notConnected')}
          value={text}
          disabled={!connected}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) onSubmit(e);
          }}
          slotProps={{ htmlInput: { 'aria-label': t('simulator.chat.message') } }}
        />
        <IconButton type="submit" color="primary" aria-label={t('simulator.chat.send')} disabled={!connected || !text.trim()}>
          <SendIcon />
        </IconButton>
      </Box>
    </Paper>
  );
}
