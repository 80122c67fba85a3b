import { zodResolver } from '@hookform/resolvers/zod';
import { CHANNELS, WhatsappInput, type Channel, type WhatsappDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { translateValidation } from '../../i18n/validation-message';
import { toastError, toastSuccess } from '../../services/toast-error';
import { createWhatsapp, updateWhatsapp, useApplyWhatsappChange, useQueueOptions, useWhatsapp } from './connections-api';

interface ConnectionFormValues {
  name: string;
  channel: Channel;
  greetingMessage: string;
  farewellMessage: string;
  isDefault: boolean;
  queueIds: number[];
}

const EMPTY: ConnectionFormValues = {
  name: '',
  channel: 'baileys',
  greetingMessage: '',
  farewellMessage: '',
  isDefault: false,
  queueIds: [],
};

const resolver = zodResolver(WhatsappInput) as unknown as Resolver<ConnectionFormValues>;

/** The placeholders a greeting or farewell may use (§3), as the server renders them (inbound/greeting-template.ts). */
export const MESSAGE_PLACEHOLDERS = ['name', 'user', 'greeting', 'date', 'hour', 'ticket_id', 'queue', 'connection'] as const;

type MessageField = 'greetingMessage' | 'farewellMessage';

function toFormValues(w: WhatsappDto): ConnectionFormValues {
  return {
    name: w.name,
    channel: w.channel,
    greetingMessage: w.greetingMessage,
    farewellMessage: w.farewellMessage,
    isDefault: w.isDefault,
    queueIds: w.queues.map((q) => q.id),
  };
}

export interface ConnectionModalProps {
  onClose: () => void;
  /** The connection to edit; none means "add a connection". */
  whatsappId?: number;
  /** Adding the first connection: it becomes the default anyway. */
  first?: boolean;
}

export function ConnectionModal({ onClose, whatsappId, first = false }: ConnectionModalProps) {
  const { t } = useTranslation();
  const editing = whatsappId !== undefined;
  const { data: existing, isLoading } = useWhatsapp(whatsappId);
  const { data: queues = [] } = useQueueOptions();
  const applyChange = useApplyWhatsappChange();

  const {
    register,
    control,
    handleSubmit,
    reset,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<ConnectionFormValues>({ resolver, defaultValues: { ...EMPTY, isDefault: first } });

  // A placeholder chip goes into the message field used last (the greeting at first), at its cursor.
  const lastMessageField = useRef<MessageField>('greetingMessage');
  const messageInputs = useRef<Partial<Record<MessageField, HTMLTextAreaElement | HTMLInputElement | null>>>({});
  const insertPlaceholder = (key: string) => {
    const field = lastMessageField.current;
    const text = `{{${key}}}`;
    const value = getValues(field) ?? '';
    const input = messageInputs.current[field];
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    setValue(field, value.slice(0, start) + text + value.slice(end), { shouldDirty: true, shouldValidate: !!errors[field] });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const messageFieldProps = (field: MessageField) => ({
    inputRef: (el: HTMLTextAreaElement | HTMLInputElement | null) => {
      messageInputs.current[field] = el;
    },
    onFocus: () => {
      lastMessageField.current = field;
    },
  });

  useEffect(() => {
    if (existing) reset(toFormValues(existing));
  }, [existing, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const { channel, ...fields } = values;
    try {
      const saved = editing ? await updateWhatsapp(whatsappId, fields) : await createWhatsapp({ ...fields, channel });
      applyChange({ action: 'update', whatsapp: saved });
      toastSuccess(t('connections.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="connection-modal-title">
      <DialogTitle id="connection-modal-title">
        {editing ? t('connections.modal.editTitle') : t('connections.modal.addTitle')}
      </DialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} data-testid="connection-modal">
        <DialogContent dividers>
          {editing && isLoading ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          ) : (
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
                <TextField
                  label={t('connections.fields.name')}
                  autoFocus
                  fullWidth
                  {...register('name')}
                  error={!!errors.name}
                  helperText={translateValidation(t, errors.name?.message)}
                />
                <Controller
                  name="isDefault"
                  control={control}
                  render={({ field }) => (
                    <FormControlLabel
                      sx={{ flexShrink: 0, mr: 0 }}
                      control={
                        <Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />
                      }
                      label={t('connections.fields.isDefault')}
                    />
                  )}
                />
              </Stack>
              <Controller
                name="channel"
                control={control}
                render={({ field }) => (
                  <FormControl fullWidth disabled={editing}>
                    <InputLabel id="connection-channel-label">{t('connections.fields.channel')}</InputLabel>
                    <Select
                      labelId="connection-channel-label"
                      label={t('connections.fields.channel')}
                      value={field.value}
                      onChange={(e) => field.onChange(e.target.value)}
                      onBlur={field.onBlur}
                    >
                      {CHANNELS.map((c) => (
                        <MenuItem key={c} value={c}>
                          {t(`connections.channels.${c}`)}
                        </MenuItem>
                      ))}
                    </Select>
                    {editing && <FormHelperText>{t('connections.fields.channelFixed')}</FormHelperText>}
                  </FormControl>
                )}
              />
              <TextField
                label={t('connections.fields.greetingMessage')}
                multiline
                minRows={3}
                maxRows={8}
                fullWidth
                {...register('greetingMessage')}
                {...messageFieldProps('greetingMessage')}
                error={!!errors.greetingMessage}
                helperText={translateValidation(t, errors.greetingMessage?.message)}
              />
              <TextField
                label={t('connections.fields.farewellMessage')}
                multiline
                minRows={3}
                maxRows={8}
                fullWidth
                {...register('farewellMessage')}
                {...messageFieldProps('farewellMessage')}
                error={!!errors.farewellMessage}
                helperText={translateValidation(t, errors.farewellMessage?.message)}
              />
              <Box data-testid="message-placeholders">
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.75 }}>
                  {t('connections.placeholders.title')}
                </Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
                  {MESSAGE_PLACEHOLDERS.map((key) => (
                    // The chip's name is the placeholder itself; the tooltip describes it.
                    <Tooltip key={key} title={t(`connections.placeholders.${key}`)} describeChild>
                      <Chip
                        size="small"
                        variant="outlined"
                        label={`{{${key}}}`}
                        // Keep the message field focused (and its cursor) while clicking.
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => insertPlaceholder(key)}
                        sx={{ fontFamily: 'monospace' }}
                      />
                    </Tooltip>
                  ))}
                </Box>
              </Box>
              <Controller
                name="queueIds"
                control={control}
                render={({ field }) => (
                  <FormControl fullWidth>
                    <InputLabel id="connection-queues-label">{t('connections.fields.queues')}</InputLabel>
                    <Select<number[]>
                      multiple
                      labelId="connection-queues-label"
                      label={t('connections.fields.queues')}
                      value={field.value}
                      onChange={(e) => {
                        const v = e.target.value;
                        field.onChange(typeof v === 'string' ? v.split(',').map(Number) : v);
                      }}
                      renderValue={(selected) => (
                        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                          {selected.map((id) => {
                            const queue = queues.find((q) => q.id === id);
                            return (
                              <Chip
                                key={id}
                                size="small"
                                label={queue?.name ?? `#${id}`}
                                sx={{ bgcolor: queue?.color, color: 'common.white' }}
                              />
                            );
                          })}
                        </Box>
                      )}
                    >
                      {queues.length === 0 && (
                        <MenuItem disabled value={-1}>
                          {t('connections.fields.noQueues')}
                        </MenuItem>
                      )}
                      {queues.map((q) => (
                        <MenuItem key={q.id} value={q.id}>
                          <Box
                            component="span"
                            sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: q.color, mr: 1, flexShrink: 0 }}
                          />
                          {q.name}
                        </MenuItem>
                      ))}
                    </Select>
                    <FormHelperText>{t('connections.fields.queuesHelp')}</FormHelperText>
                  </FormControl>
                )}
              />
            </Stack>
          )}
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} disabled={editing && isLoading} />
      </Box>
    </Dialog>
  );
}
