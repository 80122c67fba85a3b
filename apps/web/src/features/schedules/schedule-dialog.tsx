import type { ContactDto, MessageTemplate, ScheduleDto } from '@wadesk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { toastError, toastSuccess } from '../../services/toast-error';
import { TemplatePicker } from '../chat/template-picker';
import { useWhatsapps } from '../connections/connections-api';
import { searchContacts } from '../tickets/tickets-api';
import { createSchedule, updateSchedule } from './schedules-api';
import { defaultSendAt, fromLocalInput, toLocalInput } from './schedule-time';

const MIN_SEARCH = 3;

export interface ScheduleDialogProps {
  onClose: () => void;
  /** Changes this schedule (still `scheduled`); otherwise a new one. */
  schedule?: ScheduleDto;
  /** A new schedule for this contact on this connection (the chat's clock button): no recipient to choose. */
  fixed?: { contactId: number; contactName: string; whatsappId: number };
  /** The text to start with (the chat's typed message). */
  initialBody?: string;
  onSaved?: (schedule: ScheduleDto) => void;
}

type Errors = Partial<Record<'recipient' | 'body' | 'sendAt', string>>;

/** Schedule a message (or change a scheduled one): recipient, connection, text and/or file URL, date and time. */
export function ScheduleDialog({ onClose, schedule, fixed, initialBody = '', onSaved }: ScheduleDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const editing = !!schedule;
  const { data: connections = [] } = useWhatsapps();
  const [contact, setContact] = useState<ContactDto | null>(null);
  const [search, setSearch] = useState('');
  const [number, setNumber] = useState('');
  const [whatsappId, setWhatsappId] = useState<number | ''>(schedule?.whatsappId ?? fixed?.whatsappId ?? '');
  const [body, setBody] = useState(schedule?.body ?? initialBody);
  const [mediaUrl, setMediaUrl] = useState(schedule?.mediaUrl ?? '');
  const [sendAt, setSendAt] = useState(schedule ? toLocalInput(new Date(schedule.sendAt)) : defaultSendAt());
  const [template, setTemplate] = useState<MessageTemplate | null>(schedule?.template ?? null);
  const [errors, setErrors] = useState<Errors>({});
  /** Editing a field clears its message (the form is checked again on submit). */
  const edited = (field: keyof Errors) => setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const [saving, setSaving] = useState(false);
  const debounced = useDebouncedValue(search.trim().toLowerCase(), 500);
  const { data: found = [], isFetching } = useQuery({
    queryKey: ['contacts', 'search', debounced],
    enabled: !editing && !fixed && debounced.length >= MIN_SEARCH,
    queryFn: () => searchContacts(debounced),
  });
  const connection = whatsappId === '' ? (connections.find((c) => c.isDefault)?.id ?? '') : whatsappId;
  /** A Cloud API connection sends an approved template instead of text or a file (issue 18). */
  const cloud = connection !== '' && connections.find((c) => c.id === connection)?.channel === 'cloud-api';

  const validate = (): { errors: Errors; at: string | null } => {
    const next: Errors = {};
    if (!editing && !fixed && !contact === !number.trim()) next.recipient = t('schedules.form.recipientRequired');
    if (cloud ? !template : !body.trim() && !mediaUrl.trim()) next.body = cloud ? t('chat.template.required') : t('schedules.form.bodyRequired');
    const at = fromLocalInput(sendAt);
    if (!at) next.sendAt = t('schedules.form.sendAtRequired');
    else if (Date.parse(at) <= Date.now()) next.sendAt = t('schedules.form.sendAtPast');
    return { errors: next, at };
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { errors: found, at } = validate();
    setErrors(found);
    if (Object.keys(found).length > 0 || !at) return;
    setSaving(true);
    try {
      const common = cloud
        ? { body: '', template: template ?? undefined, sendAt: at, whatsappId: connection }
        : { body, mediaUrl: mediaUrl.trim() || undefined, sendAt: at, whatsappId: connection === '' ? undefined : connection };
      const saved = schedule
        ? await updateSchedule(schedule.id, cloud ? { ...common, mediaUrl: null } : { ...common, mediaUrl: mediaUrl.trim() || null, template: null })
        : await createSchedule({
            ...common,
            ...(fixed ? { contactId: fixed.contactId } : contact ? { contactId: contact.id } : { number: number.trim() }),
          });
      toastSuccess(editing ? t('schedules.saved') : t('schedules.created'));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{editing ? t('schedules.form.editTitle') : t('schedules.form.title')}</DialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} data-testid="schedule-form" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <DialogContent dividers>
          <Stack spacing={2}>
            {schedule || fixed ? (
              <Typography variant="body2" data-testid="schedule-recipient">
                {t('schedules.form.to', { name: schedule ? (schedule.contactName ?? schedule.number) : fixed!.contactName })}
              </Typography>
            ) : (
              <>
                <Autocomplete<ContactDto>
                  options={found}
                  filterOptions={(o) => o}
                  loading={isFetching}
                  value={contact}
                  inputValue={search}
                  onInputChange={(_, v) => setSearch(v)}
                  onChange={(_, v) => {
                    setContact(v);
                    edited('recipient');
                  }}
                  getOptionLabel={(c) => `${c.name} (${c.number})`}
                  isOptionEqualToValue={(a, b) => a.id === b.id}
                  noOptionsText={debounced.length < MIN_SEARCH ? t('schedules.form.typeToSearch') : t('schedules.form.noContacts')}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('schedules.form.contact')}
                      error={!!errors.recipient}
                      helperText={errors.recipient}
                    />
                  )}
                />
                <TextField
                  label={t('schedules.form.number')}
                  value={number}
                  onChange={(e) => {
                    setNumber(e.target.value);
                    edited('recipient');
                  }}
                  disabled={!!contact}
                  helperText={t('schedules.form.numberHelp')}
                  slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'schedule-number' } }}
                />
              </>
            )}
            {!fixed && (
              <TextField
                select
                label={t('campaigns.fields.connection')}
                value={connection === '' ? '' : String(connection)}
                onChange={(e) => setWhatsappId(Number(e.target.value))}
                slotProps={{ htmlInput: { 'data-testid': 'schedule-connection' } }}
              >
                {connections.map((c) => (
                  <MenuItem key={c.id} value={String(c.id)}>
                    {c.name} ({t(`connections.status.${c.status}`)})
                  </MenuItem>
                ))}
              </TextField>
            )}
            {cloud && (
              <TemplatePicker
                key={connection}
                whatsappId={connection}
                initial={schedule?.template}
                error={errors.body}
                onChange={(value) => {
                  setTemplate(value);
                  if (value) edited('body');
                }}
              />
            )}
            {!cloud && (
              <>
                <TextField
                  label={t('schedules.form.body')}
                  value={body}
                  onChange={(e) => {
                    setBody(e.target.value);
                    edited('body');
                  }}
                  multiline
                  minRows={3}
                  maxRows={10}
                  autoFocus={!!fixed || editing}
                  error={!!errors.body}
                  helperText={errors.body}
                  slotProps={{ htmlInput: { 'data-testid': 'schedule-body' } }}
                />
                <TextField
                  label={t('schedules.form.mediaUrl')}
                  value={mediaUrl}
                  onChange={(e) => {
                    setMediaUrl(e.target.value);
                    edited('body');
                  }}
                  helperText={t('schedules.form.mediaUrlHelp')}
                  slotProps={{ htmlInput: { inputMode: 'url', 'data-testid': 'schedule-media-url' } }}
                />
              </>
            )}
            <TextField
              type="datetime-local"
              label={t('schedules.form.sendAt')}
              value={sendAt}
              onChange={(e) => {
                setSendAt(e.target.value);
                edited('sendAt');
              }}
              required
              error={!!errors.sendAt}
              helperText={errors.sendAt ?? t('schedules.form.sendAtHelp')}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1, 'data-testid': 'schedule-send-at' } }}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={saving} editing={editing} />
      </Box>
    </Dialog>
  );
}
