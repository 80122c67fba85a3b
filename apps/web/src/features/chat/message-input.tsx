import type { ContactDto, MessageDto, QuickAnswerListResponse } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArticleIcon from '@mui/icons-material/Article';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import MicIcon from '@mui/icons-material/Mic';
import ScheduleSendIcon from '@mui/icons-material/ScheduleSend';
import SendIcon from '@mui/icons-material/Send';
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { api } from '../../services/api';
import { errorMessage, toastError } from '../../services/toast-error';
import { useWhatsapp } from '../connections/connections-api';
import { useAuth } from '../auth/auth-context';
import { ScheduleDialog } from '../schedules/schedule-dialog';
import { useToolAccess } from '../settings/use-tool-access';
import { renderMarkdown } from '../tickets/format';
import { encodeMp3, formatTimer, microphoneProblem, MIN_AUDIO_BYTES, startRecording, type Recording } from './audio-recorder';
import { EmojiPicker } from './emoji-picker';
import { TemplateDialog } from './template-dialog';
import { sendMedia, sendText, useUpsertMessage } from './messages-api';

export const SIGN_OPTION_KEY = 'signOption';
/** The composer's width from which the sign switch fits in the row beside the text box. */
const SIGN_IN_ROW = '@container composer (min-width: 560px)';

function readSign(): boolean {
  return localStorage.getItem(SIGN_OPTION_KEY) !== 'false';
}

/** `*Name:*\n` + text when signing is on (§9). */
export function signBody(body: string, name: string | undefined, sign: boolean): string {
  return sign && name ? `*${name}:*\n${body}` : body;
}

function FilePreview({ file }: { file: File }) {
  const url = useMemo(() => (file.type.startsWith('image/') ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  return (
    <Box sx={{ width: 96, textAlign: 'center' }}>
      {url ? (
        <Box component="img" src={url} alt={file.name} sx={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 1 }} />
      ) : (
        <InsertDriveFileIcon sx={{ fontSize: 64, color: 'text.secondary' }} />
      )}
      <Typography variant="caption" noWrap component="div">
        {file.name}
      </Typography>
    </Box>
  );
}

export interface MessageInputProps {
  ticketId: number;
  /** The ticket's contact and connection: the clock button schedules the typed message for them. */
  contact: Pick<ContactDto, 'id' | 'name'>;
  whatsappId: number;
  disabled: boolean;
  replyingTo: MessageDto | null;
  onCancelReply: () => void;
}

/** The message input (§2): quick answers, emoji, attachments, audio recording, signing; the clock schedules the text (issue 14). */
export const MessageInput = memo(function MessageInput({ ticketId, contact, whatsappId, disabled, replyingTo, onCancelReply }: MessageInputProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const upsert = useUpsertMessage();
  const [text, setText] = useState('');
  const [sign, setSign] = useState(readSign);
  const [sending, setSending] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [caption, setCaption] = useState('');
  const [recording, setRecording] = useState<Recording | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const maySchedule = useToolAccess().may('schedules');
  /** The template dialog (Cloud API connections): open, and whether a refused message opened it. */
  const [templating, setTemplating] = useState<null | { windowClosed: boolean }>(null);
  const { data: connection } = useWhatsapp(whatsappId);
  const cloud = connection?.channel === 'cloud-api';
  const [seconds, setSeconds] = useState(0);
  const fileRef = useRef<HTMLInputElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const slash = text.startsWith('/') && !text.includes('\n') ? text.slice(1).toLowerCase() : null;
  const quickSearch = useDebouncedValue(slash, 300);
  const { data: quickAnswers } = useQuery({
    queryKey: ['quickAnswers', 'lookup', quickSearch],
    enabled: quickSearch !== null && slash !== null,
    queryFn: async () => (await api.get<QuickAnswerListResponse>('/quickAnswers', { params: { searchParam: quickSearch } })).data.quickAnswers,
  });
  const [quickActive, setQuickActive] = useState(0);
  const [quickDismissed, setQuickDismissed] = useState<string | null>(null);
  const showQuick = slash !== null && slash !== quickDismissed && !!quickAnswers && quickAnswers.length > 0;
  const quickListRef = useRef<HTMLUListElement>(null);

  // A new list starts on its first item.
  useEffect(() => setQuickActive(0), [quickAnswers]);
  // The highlighted answer stays in sight while moving with the arrow keys.
  useEffect(() => {
    if (!showQuick) return;
    quickListRef.current?.querySelector<HTMLElement>(`[data-index="${quickActive}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [quickActive, showQuick]);

  // Reply (from a message's menu) puts the cursor in the input, once the menu has closed.
  useEffect(() => {
    if (!replyingTo) return undefined;
    const frame = requestAnimationFrame(() => inputRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [replyingTo]);

  const pickQuick = (message: string) => {
    setText(message);
    inputRef.current?.focus();
  };

  useEffect(() => {
    if (!recording) return undefined;
    setSeconds(0);
    const started = Date.now();
    const id = setInterval(() => setSeconds((Date.now() - started) / 1000), 500);
    return () => clearInterval(id);
  }, [recording]);

  // Another ticket starts empty (no render when it already is: this runs on mount too).
  useEffect(() => {
    setText('');
    setFiles((current) => (current.length > 0 ? [] : current));
    setCaption('');
  }, [ticketId]);

  const toggleSign = (value: boolean) => {
    setSign(value);
    localStorage.setItem(SIGN_OPTION_KEY, String(value));
  };

  const send = async () => {
    const body = text.trim();
    if (!body || sending) return;
    setSending(true);
    try {
      const message = await sendText(ticketId, signBody(body, user?.name, sign), replyingTo?.id);
      upsert(message);
      setText('');
      onCancelReply();
    } catch (err) {
      toastError(err);
      // Outside the 24-hour window only a template may go: offer one, keeping the typed text.
      if (errorMessage(err).code === 'ERR_CLOUD_API_WINDOW_CLOSED') setTemplating({ windowClosed: true });
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  };

  const sendFiles = async (list: File[], body: string) => {
    setSending(true);
    try {
      const messages = await sendMedia(ticketId, list, body);
      for (const m of messages) upsert(m);
      setFiles([]);
      setCaption('');
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (showQuick && quickAnswers && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setQuickActive((i) => (i + step + quickAnswers.length) % quickAnswers.length);
      return;
    }
    if (e.key === 'Escape') {
      if (showQuick) {
        e.preventDefault();
        setQuickDismissed(slash);
      } else if (replyingTo) {
        e.preventDefault();
        onCancelReply();
      }
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (showQuick && quickAnswers) {
        pickQuick((quickAnswers[quickActive] ?? quickAnswers[0]).message);
        return;
      }
      void send();
    }
  };

  const startRec = async () => {
    try {
      setRecording(await startRecording());
    } catch (err) {
      const problem = microphoneProblem(err);
      if (problem) toast.error(t(problem), { toastId: 'microphone' });
      else toastError(err);
    }
  };

  const stopRec = async () => {
    if (!recording) return;
    const current = recording;
    setRecording(null);
    setSending(true);
    try {
      const raw = await current.stop();
      let blob = raw;
      let name = `audio-${Date.now()}.webm`;
      try {
        blob = await encodeMp3(raw);
        name = `audio-${Date.now()}.mp3`;
      } catch {
        /* the browser could not decode its own recording: send it as recorded */
      }
      if (blob.size < MIN_AUDIO_BYTES) {
        toast.info(t('chat.input.audioTooShort'));
        setSending(false);
        return;
      }
      await sendFiles([new File([blob], name, { type: blob.type })], '');
    } catch (err) {
      toastError(err);
      setSending(false);
    }
  };

  if (files.length > 0) {
    return (
      <Paper square elevation={0} sx={{ borderTop: 1, borderColor: 'divider', p: 1.5 }} data-testid="attachments-preview">
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          {files.map((f) => (
            <FilePreview key={`${f.name}-${f.size}`} file={f} />
          ))}
        </Box>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <TextField
            size="small"
            fullWidth
            label={t('chat.input.caption')}
            value={caption}
            onChange={(e) => setCaption(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void sendFiles(files, signBody(caption.trim(), user?.name, sign && !!caption.trim()));
              }
            }}
          />
          <IconButton aria-label={t('common.cancel')} onClick={() => setFiles([])} disabled={sending}>
            <CancelIcon />
          </IconButton>
          <IconButton
            color="primary"
            aria-label={t('chat.input.send')}
            disabled={sending}
            onClick={() => void sendFiles(files, signBody(caption.trim(), user?.name, sign && !!caption.trim()))}
          >
            {sending ? <CircularProgress size={22} /> : <SendIcon />}
          </IconButton>
        </Box>
      </Paper>
    );
  }

  return (
    // A size container: the sign switch sits in the row only when the composer (not the screen) is wide enough to
    // leave the text box a width to type in (issue 33 item 1); otherwise under it.
    <Paper square elevation={0} sx={{ borderTop: 1, borderColor: 'divider', position: 'relative', bgcolor: '#f0f2f5', containerType: 'inline-size', containerName: 'composer' }} data-testid="composer">
      {showQuick && (
        <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxHeight: 260, overflowY: 'auto', zIndex: 2 }}>
          <List dense data-testid="quick-answers" ref={quickListRef} role="listbox" aria-label={t('chat.quickAnswersLabel')}>
            {quickAnswers.map((qa, i) => (
              <ListItemButton
                key={qa.id}
                data-index={i}
                role="option"
                selected={i === quickActive}
                aria-selected={i === quickActive}
                tabIndex={-1}
                onMouseEnter={() => setQuickActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pickQuick(qa.message)}
              >
                <ListItemText primary={`/${qa.shortcut}`} secondary={qa.message} slotProps={{ secondary: { noWrap: true } }} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {replyingTo && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, pt: 1 }} data-testid="replying-to">
          <Box sx={{ flex: 1, minWidth: 0, borderLeft: 4, borderColor: 'primary.main', bgcolor: 'background.paper', borderRadius: 1, px: 1, py: 0.5 }}>
            <Typography variant="caption" sx={{ fontWeight: 600 }} color="primary.dark">
              {replyingTo.fromMe ? t('chat.you') : (replyingTo.contact?.name ?? '')}
            </Typography>
            <Typography variant="body2" noWrap color="text.secondary">
              {renderMarkdown(replyingTo.body)}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t('chat.input.cancelReply')} onClick={onCancelReply}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5, px: 1, py: 1 }}>
        {recording ? (
          <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1 }}>
            <IconButton aria-label={t('chat.input.cancelRecording')} onClick={() => { recording.cancel(); setRecording(null); }}>
              <CancelIcon color="error" />
            </IconButton>
            <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'error.main' }} />
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="recording-timer">
              {formatTimer(seconds)}
            </Typography>
            <IconButton aria-label={t('chat.input.stopRecording')} onClick={() => void stopRec()}>
              <CheckCircleIcon color="success" />
            </IconButton>
          </Box>
        ) : (
          <>
            <EmojiPicker disabled={disabled} onPick={(emoji) => setText((v) => v + emoji)} />
            <input
              ref={fileRef}
              type="file"
              multiple
              hidden
              data-testid="attach-input"
              onChange={(e) => {
                setFiles(Array.from(e.target.files ?? []));
                e.target.value = '';
              }}
            />
            <IconButton aria-label={t('chat.input.attach')} disabled={disabled} onClick={() => fileRef.current?.click()}>
              <AttachFileIcon />
            </IconButton>
            <FormControlLabel
              sx={{ mx: 0.5, display: 'none', [SIGN_IN_ROW]: { display: 'flex' } }}
              control={<Switch size="small" checked={sign} onChange={(e) => toggleSign(e.target.checked)} />}
              label={<Typography variant="caption">{t('chat.input.sign')}</Typography>}
              labelPlacement="bottom"
            />
            <InputBase
              inputRef={inputRef}
              multiline
              maxRows={5}
              fullWidth
              disabled={disabled}
              placeholder={disabled ? t('chat.input.disabled') : t('chat.input.placeholder')}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                if (!e.target.value.startsWith('/')) setQuickDismissed(null);
              }}
              onKeyDown={onKeyDown}
              inputProps={{ 'aria-label': t('chat.input.placeholder') }}
              sx={{ bgcolor: 'background.paper', borderRadius: 2, px: 1.5, py: 1, alignSelf: 'center', minWidth: 0 }}
              data-testid="message-box"
            />
            {cloud && (
              <Tooltip title={t('chat.template.open')}>
                <span>
                  <IconButton aria-label={t('chat.template.open')} disabled={disabled || sending} onClick={() => setTemplating({ windowClosed: false })} data-testid="open-templates">
                    <ArticleIcon />
                  </IconButton>
                </span>
              </Tooltip>
            )}
            {maySchedule && (
              <Tooltip title={t('chat.input.schedule')}>
                <span>
                  <IconButton aria-label={t('chat.input.schedule')} disabled={disabled || sending} onClick={() => setScheduling(true)} data-testid="schedule-message">
                    <ScheduleSendIcon />
                  </IconButton>
                </span>
              </Tooltip>
            )}
            {text.trim() ? (
              <IconButton color="primary" aria-label={t('chat.input.send')} disabled={disabled || sending} onClick={() => void send()}>
                {sending ? <CircularProgress size={22} /> : <SendIcon />}
              </IconButton>
            ) : (
              <IconButton aria-label={t('chat.input.record')} disabled={disabled || sending} onClick={() => void startRec()}>
                {sending ? <CircularProgress size={22} /> : <MicIcon />}
              </IconButton>
            )}
          </>
        )}
      </Box>
      {templating && (
        <TemplateDialog
          ticketId={ticketId}
          whatsappId={whatsappId}
          windowClosed={templating.windowClosed}
          onClose={() => setTemplating(null)}
          onSent={(message) => upsert(message)}
        />
      )}
      {scheduling && (
        <ScheduleDialog
          fixed={{ contactId: contact.id, contactName: contact.name, whatsappId }}
          initialBody={text.trim() ? signBody(text.trim(), user?.name, sign) : ''}
          onClose={() => setScheduling(false)}
          onSaved={() => setText('')}
        />
      )}
      {/* The sign switch of a narrow composer sits under the input. */}
      <Box sx={{ display: 'flex', px: 1.5, pb: 0.5, [SIGN_IN_ROW]: { display: 'none' } }}>
        <FormControlLabel
          control={<Switch size="small" checked={sign} onChange={(e) => toggleSign(e.target.checked)} />}
          label={<Typography variant="caption">{t('chat.input.sign')}</Typography>}
        />
      </Box>
    </Paper>
  );
});
