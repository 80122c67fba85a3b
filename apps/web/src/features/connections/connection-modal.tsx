import { zodResolver } from '@hookform/resolvers/zod';
import { CHANNELS, WhatsappInput, type Channel, type WhatsappDto } from '@wadesk/contracts';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useEffect } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect } from '../../components/form-select';
import { FormTextField } from '../../components/form-text-field';
import { QueueMultiSelect } from '../queues/queue-multi-select';
import { useWhatsapp, useWhatsappActions } from './connections-api';
import { MessagePlaceholderChips, useMessagePlaceholders } from './message-placeholders';

export { MESSAGE_PLACEHOLDERS } from './message-placeholders';

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

/** The fields that take placeholders. */
const MESSAGE_FIELDS = ['greetingMessage', 'farewellMessage'] as const;

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
  const { create, update } = useWhatsappActions();
  const form = useForm<ConnectionFormValues>({ resolver, defaultValues: { ...EMPTY, isDefault: first } });
  const { reset } = form;
  const placeholders = useMessagePlaceholders(form, MESSAGE_FIELDS);

  useEffect(() => {
    if (existing) reset(toFormValues(existing));
  }, [existing, reset]);

  const save = async ({ channel, ...fields }: ConnectionFormValues) => {
    await (editing ? update(whatsappId, fields) : create({ ...fields, channel }));
  };

  return (
    <FormDialog
      title={editing ? t('connections.modal.editTitle') : t('connections.modal.addTitle')}
      testId="connection-modal"
      form={form}
      onSave={save}
      savedText={t('connections.saved')}
      onClose={onClose}
      editing={editing}
      loading={editing && isLoading}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <FormTextField form={form} name="name" label={t('connections.fields.name')} autoFocus />
        <Controller
          name="isDefault"
          control={form.control}
          render={({ field }) => (
            <FormControlLabel
              sx={{ flexShrink: 0, mr: 0 }}
              control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />}
              label={t('connections.fields.isDefault')}
            />
          )}
        />
      </Stack>
      <FormSelect
        form={form}
        name="channel"
        label={t('connections.fields.channel')}
        options={CHANNELS.map((c) => ({ value: c, label: t(`connections.channels.${c}`) }))}
        disabled={editing}
        helperText={editing ? t('connections.fields.channelFixed') : undefined}
      />
      {MESSAGE_FIELDS.map((name) => (
        <FormTextField
          key={name}
          form={form}
          name={name}
          label={t(`connections.fields.${name}`)}
          multiline
          minRows={3}
          maxRows={8}
          {...placeholders.messageFieldProps(name)}
        />
      ))}
      <MessagePlaceholderChips onInsert={placeholders.insert} />
      <QueueMultiSelect
        form={form}
        name="queueIds"
        label={t('connections.fields.queues')}
        emptyText={t('connections.fields.noQueues')}
        helperText={t('connections.fields.queuesHelp')}
      />
    </FormDialog>
  );
}
