import { mentionQueryAt, nameMatches, type ContactDto, type MessageDto, type QuickAnswerListResponse } from '@wadesk/contracts';
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
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
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
import ReplyIcon from '@mui/icons-material/Reply';
import StickyNote2OutlinedIcon from '@mui/icons-material/StickyNote2Outlined';
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
import { fetchMentionable, sendMedia, sendText, useUpsertMessage } from './messages-api';

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
  /** Reply to the contact, or an internal note the team sees (issue 36 §1): notes are text only and never signed. */
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const note = mode === 'note';
  /** Replies need an open ticket; a note may be written on any ticket the user sees (waiting, resolved). */
  const locked = disabled && !note;
  /** Where the caret is: the `@` autocomplete reads the word typed before it. */
  const [caret, setCaret] = useState(0);
  const mention = note ? mentionQueryAt(text, caret) : null;
  const { data: mentionable } = useQuery({
    queryKey: ['mentionable', ticketId],
    enabled: note,
    staleTime: 60_000,
    queryFn: () => fetchMentionable(ticketId),
  });
  const mentionOptions = useMemo(
    () => (mention && mentionable ? mentionable.filter((u) => nameMatches(u.name, mention.query)).slice(0, 8) : []),
    [mention?.query, mention !== null, mentionable], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const [mentionActive, setMentionActive] = useState(0);
  const [mentionDismissed, setMentionDismissed] = useState<number | null>(null);
  const showMentions = mention !== null && mention.start !== mentionDismissed && mentionOptions.length > 0;
  useEffect(() => setMentionActive(0), [mentionOptions.length, mention?.query]);

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

  /** Puts `@Name ` in place of the `@` word being typed, the caret after it. */
  const pickMention = (name: string) => {
    if (!mention) return;
    const next = `${text.slice(0, mention.start)}@${name} ${text.slice(caret)}`;
    const at = mention.start + name.length + 2;
    setText(next);
    setCaret(at);
    requestAnimationFrame(() => {
      inputRef.current?.focus();
      inputRef.current?.setSelectionRange(at, at);
    });
  };

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

  // Another ticket starts empty (no render when it already is: this runs on mount too), as a reply.
  useEffect(() => {
    setText('');
    setMode('reply');
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
      // A note carries its author on its own ("Note · <name>"): it is not signed.
      const message = note ? await sendText(ticketId, body, replyingTo?.id, true) : await sendText(ticketId, signBody(body, user?.name, sign), replyingTo?.id);
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
    if (showMentions) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setMentionActive((i) => (i + step + mentionOptions.length) % mentionOptions.length);
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) || e.key === 'Tab') {
        e.preventDefault();
        pickMention((mentionOptions[mentionActive] ?? mentionOptions[0]!).name);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setMentionDismissed(mention.start);
        return;
      }
    }
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
    <Paper
      square
      elevation={0}
      sx={{ borderTop: 1, borderColor: note ? '#ecd67a' : 'divider', position: 'relative', bgcolor: note ? '#fff8d6' : '#f0f2f5', containerType: 'inline-size', containerName: 'composer' }}
      data-testid="composer"
      data-mode={mode}
    >
      {showMentions && (
        <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxHeight: 260, overflowY: 'auto', zIndex: 3 }}>
          <List dense data-testid="mention-options" role="listbox" aria-label={t('chat.input.mentionsLabel')}>
            {mentionOptions.map((u, i) => (
              <ListItemButton
                key={u.id}
                role="option"
                selected={i === mentionActive}
                aria-selected={i === mentionActive}
                tabIndex={-1}
                onMouseEnter={() => setMentionActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pickMention(u.name)}
              >
                <ListItemText primary={`@${u.name}`} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, pt: 0.75 }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_, value: 'reply' | 'note' | null) => {
            if (!value) return;
            setMode(value);
            // After the render that enables the box (a note on a ticket that is not open).
            requestAnimationFrame(() => inputRef.current?.focus());
          }}
          aria-label={t('chat.input.modeLabel')}
          sx={{ bgcolor: 'background.paper', '& .MuiToggleButton-root': { py: 0.25, px: 1, textTransform: 'none', gap: 0.5 } }}
        >
          <ToggleButton value="reply" data-testid="composer-mode-reply">
            <ReplyIcon fontSize="small" />
            {t('chat.input.reply')}
          </ToggleButton>
          <ToggleButton value="note" data-testid="composer-mode-note" sx={{ '&.Mui-selected': { bgcolor: '#ffe58a', color: '#5c4600' } }}>
            <StickyNote2OutlinedIcon fontSize="small" />
            {t('chat.input.note')}
          </ToggleButton>
        </ToggleButtonGroup>
        {note && (
          <Typography variant="caption" color="#7a5d00" sx={{ minWidth: 0, display: 'none', [SIGN_IN_ROW]: { display: 'block' } }} noWrap>
            {t('chat.input.noteHelp')}
          </Typography>
        )}
      </Box>
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
            <EmojiPicker disabled={locked} onPick={(emoji) => setText((v) => v + emoji)} />
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
            {!note && (
              <IconButton aria-label={t('chat.input.attach')} disabled={disabled} onClick={() => fileRef.current?.click()}>
                <AttachFileIcon />
              </IconButton>
            )}
            <FormControlLabel
              sx={{ mx: 0.5, display: 'none', [SIGN_IN_ROW]: { display: note ? 'none' : 'flex' } }}
              control={<Switch size="small" checked={sign} onChange={(e) => toggleSign(e.target.checked)} />}
              label={<Typography variant="caption">{t('chat.input.sign')}</Typography>}
              labelPlacement="bottom"
            />
            <InputBase
              inputRef={inputRef}
              multiline
              maxRows={5}
              fullWidth
              disabled={locked}
              placeholder={locked ? t('chat.input.disabled') : note ? t('chat.input.notePlaceholder') : t('chat.input.placeholder')}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setCaret(e.target.selectionStart ?? e.target.value.length);
                if (!e.target.value.startsWith('/')) setQuickDismissed(null);
              }}
              onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
              onKeyDown={onKeyDown}
              inputProps={{
                'aria-label': note ? t('chat.input.notePlaceholder') : t('chat.input.placeholder'),
                'aria-expanded': showMentions || showQuick,
                'aria-autocomplete': note ? 'list' : undefined,
              }}
              sx={{ bgcolor: 'background.paper', borderRadius: 2, px: 1.5, py: 1, alignSelf: 'center', minWidth: 0 }}
              data-testid="message-box"
            />
            {cloud && !note && (
              <Tooltip title={t('chat.template.open')}>
                <span>
                  <IconButton aria-label={t('chat.template.open')} disabled={disabled || sending} onClick={() => setTemplating({ windowClosed: false })} data-testid="open-templates">
                    <ArticleIcon />
                  </IconButton>
                </span>
              </Tooltip>
            )}
            {maySchedule && !note && (
              <Tooltip title={t('chat.input.schedule')}>
                <span>
                  <IconButton aria-label={t('chat.input.schedule')} disabled={disabled || sending} onClick={() => setScheduling(true)} data-testid="schedule-message">
                    <ScheduleSendIcon />
                  </IconButton>
                </span>
              </Tooltip>
            )}
            {text.trim() || note ? (
              <IconButton color="primary" aria-label={t('chat.input.send')} disabled={locked || sending || !text.trim()} onClick={() => void send()} data-testid="composer-send">
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
      <Box sx={{ display: note ? 'none' : 'flex', px: 1.5, pb: 0.5, [SIGN_IN_ROW]: { display: 'none' } }}>
        <FormControlLabel
          control={<Switch size="small" checked={sign} onChange={(e) => toggleSign(e.target.checked)} />}
          label={<Typography variant="caption">{t('chat.input.sign')}</Typography>}
        />
      </Box>
    </Paper>
  );
});
