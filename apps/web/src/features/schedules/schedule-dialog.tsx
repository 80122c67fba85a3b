import { zodResolver } from '@hookform/resolvers/zod';
import { ScheduleInput, type ContactDto, type MessageTemplate, type ScheduleDto } from '@wadesk/contracts';
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
import { useId, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { FormTextField } from '../../components/form-text-field';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { translateValidation } from '../../i18n/validation-message';
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

interface ScheduleFormValues {
  contact: ContactDto | null;
  number: string;
  whatsappId: number | '';
  body: string;
  mediaUrl: string;
  /** A `datetime-local` value in the browser's time zone. */
  sendAt: string;
  template: MessageTemplate | null;
}

/**
 * The server's rule for a schedule (ScheduleInput: number, text and file URL) and what the dialog adds: a recipient
 * (a contact or a number, not both) when it is to be chosen, a text or a file (a template on a Cloud API connection),
 * and a time to come. Messages are i18n keys or the common validation messages.
 */
function scheduleFormSchema({ chooseRecipient, cloud }: { chooseRecipient: boolean; cloud: boolean }) {
  return z
    .object({
      contact: z.custom<ContactDto>().nullable(),
      number: ScheduleInput.shape.number.unwrap(),
      whatsappId: z.union([z.number(), z.literal('')]),
      body: ScheduleInput.shape.body,
      mediaUrl: ScheduleInput.shape.mediaUrl.unwrap(),
      sendAt: z.string(),
      template: ScheduleInput.shape.template.unwrap().nullable(),
    })
    .superRefine((v, ctx) => {
      if (chooseRecipient && !v.contact === !v.number.trim()) ctx.addIssue({ code: 'custom', path: ['contact'], message: 'schedules.form.recipientRequired' });
      if (cloud ? !v.template : !v.body.trim() && !v.mediaUrl.trim()) {
        ctx.addIssue({ code: 'custom', path: ['body'], message: cloud ? 'chat.template.required' : 'schedules.form.bodyRequired' });
      }
      const at = fromLocalInput(v.sendAt);
      if (!at) ctx.addIssue({ code: 'custom', path: ['sendAt'], message: 'schedules.form.sendAtRequired' });
      else if (Date.parse(at) <= Date.now()) ctx.addIssue({ code: 'custom', path: ['sendAt'], message: 'schedules.form.sendAtPast' });
    });
}

/** Schedule a message (or change a scheduled one): recipient, connection, text and/or file URL, date and time. */
export function ScheduleDialog({ onClose, schedule, fixed, initialBody = '', onSaved }: ScheduleDialogProps) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const editing = !!schedule;
  const chooseRecipient = !editing && !fixed;
  const { data: connections = [] } = useWhatsapps();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim().toLowerCase(), 500);
  const { data: found = [], isFetching } = useQuery({
    queryKey: ['contacts', 'search', debounced],
    enabled: chooseRecipient && debounced.length >= MIN_SEARCH,
    queryFn: () => searchContacts(debounced),
  });
  const [cloudNow, setCloudNow] = useState(false);
  const resolver = useMemo(
    () => zodResolver(scheduleFormSchema({ chooseRecipient, cloud: cloudNow })) as unknown as Resolver<ScheduleFormValues>,
    [chooseRecipient, cloudNow],
  );
  const form = useForm<ScheduleFormValues>({
    resolver,
    defaultValues: {
      contact: null,
      number: '',
      whatsappId: schedule?.whatsappId ?? fixed?.whatsappId ?? '',
      body: schedule?.body ?? initialBody,
      mediaUrl: schedule?.mediaUrl ?? '',
      sendAt: schedule ? toLocalInput(new Date(schedule.sendAt)) : defaultSendAt(),
      template: schedule?.template ?? null,
    },
  });
  const [whatsappId, contact] = useWatch({ control: form.control, name: ['whatsappId', 'contact'] });
  const connection = whatsappId === '' ? (connections.find((c) => c.isDefault)?.id ?? '') : whatsappId;
  /** A Cloud API connection sends an approved template instead of text or a file (issue 18). */
  const cloud = connection !== '' && connections.find((c) => c.id === connection)?.channel === 'cloud-api';
  if (cloud !== cloudNow) setCloudNow(cloud);
  /** A message of the schema (an i18n key) or one of the common validation messages, in the user's language. */
  const errorText = (message: string | undefined) => (message && i18n.exists(message) ? t(message) : translateValidation(t, message));
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const at = fromLocalInput(values.sendAt)!;
    const mediaUrl = values.mediaUrl.trim();
    try {
      const common = cloud
        ? { body: '', template: values.template ?? undefined, sendAt: at, whatsappId: connection }
        : { body: values.body, mediaUrl: mediaUrl || undefined, sendAt: at, whatsappId: connection === '' ? undefined : connection };
      const saved = schedule
        ? await updateSchedule(schedule.id, cloud ? { ...common, mediaUrl: null } : { ...common, mediaUrl: mediaUrl || null, template: null })
        : await createSchedule({
            ...common,
            ...(fixed ? { contactId: fixed.contactId } : values.contact ? { contactId: values.contact.id } : { number: values.number.trim() }),
          });
      toastSuccess(editing ? t('schedules.saved') : t('schedules.created'));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{editing ? t('schedules.form.editTitle') : t('schedules.form.title')}</DialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} data-testid="schedule-form" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <DialogContent dividers>
          <Stack spacing={2}>
            {!chooseRecipient ? (
              <Typography variant="body2" data-testid="schedule-recipient">
                {t('schedules.form.to', { name: schedule ? (schedule.contactName ?? schedule.number) : fixed!.contactName })}
              </Typography>
            ) : (
              <>
                <Controller
                  control={form.control}
                  name="contact"
                  render={({ field, fieldState }) => (
                    <Autocomplete<ContactDto>
                      options={found}
                      filterOptions={(o) => o}
                      loading={isFetching}
                      value={field.value}
                      inputValue={search}
                      onInputChange={(_, v) => setSearch(v)}
                      onChange={(_, v) => field.onChange(v)}
                      onBlur={field.onBlur}
                      getOptionLabel={(c) => `${c.name} (${c.number})`}
                      isOptionEqualToValue={(a, b) => a.id === b.id}
                      noOptionsText={debounced.length < MIN_SEARCH ? t('schedules.form.typeToSearch') : t('schedules.form.noContacts')}
                      renderInput={(params) => (
                        <TextField
                          {...params}
                          label={t('schedules.form.contact')}
                          error={!!fieldState.error}
                          helperText={errorText(fieldState.error?.message)}
                        />
                      )}
                    />
                  )}
                />
                <FormTextField
                  form={form}
                  name="number"
                  label={t('schedules.form.number')}
                  disabled={!!contact}
                  errorText={errorText}
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
                onChange={(e) => form.setValue('whatsappId', Number(e.target.value))}
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
                error={errorText(errors.body?.message)}
                onChange={(value) => form.setValue('template', value, { shouldValidate: form.formState.isSubmitted })}
              />
            )}
            {!cloud && (
              <>
                <FormTextField
                  form={form}
                  name="body"
                  label={t('schedules.form.body')}
                  multiline
                  minRows={3}
                  maxRows={10}
                  autoFocus={!!fixed || editing}
                  errorText={errorText}
                  slotProps={{ htmlInput: { 'data-testid': 'schedule-body' } }}
                />
                <FormTextField
                  form={form}
                  name="mediaUrl"
                  label={t('schedules.form.mediaUrl')}
                  errorText={errorText}
                  helperText={t('schedules.form.mediaUrlHelp')}
                  slotProps={{ htmlInput: { inputMode: 'url', 'data-testid': 'schedule-media-url' } }}
                />
              </>
            )}
            <FormTextField
              form={form}
              name="sendAt"
              type="datetime-local"
              label={t('schedules.form.sendAt')}
              required
              errorText={errorText}
              helperText={t('schedules.form.sendAtHelp')}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1, 'data-testid': 'schedule-send-at' } }}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} />
      </Box>
    </Dialog>
  );
}
