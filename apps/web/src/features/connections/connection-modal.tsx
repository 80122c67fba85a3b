import { zodResolver } from '@hookform/resolvers/zod';
import { CHANNELS, WhatsappInput, type Channel, type WhatsappDto } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useEffect } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect } from '../../components/form-select';
import { FormTextField } from '../../components/form-text-field';
import { BusinessHoursFields, type BusinessHoursFormValues } from '../business-hours/business-hours-fields';
import { QueueMultiSelect } from '../queues/queue-multi-select';
import { useWhatsapp, useWhatsappActions } from './connections-api';
import { MessagePlaceholderChips, useMessagePlaceholders } from './message-placeholders';
import { MODAL_SUBMIT_DELAY_MS } from '../../services/submit-delay';

export { MESSAGE_PLACEHOLDERS } from './message-placeholders';

interface ConnectionFormValues extends BusinessHoursFormValues {
  name: string;
  channel: Channel;
  greetingMessage: string;
  farewellMessage: string;
  isDefault: boolean;
  queueIds: number[];
  /** A `cloud-api` connection's credentials (issue 18); the token and app secret come back masked. */
  cloudPhoneNumberId?: string;
  cloudBusinessAccountId?: string;
  cloudAccessToken?: string;
  cloudAppSecret?: string;
  cloudVerifyToken?: string;
}

const CLOUD_FIELDS = ['cloudPhoneNumberId', 'cloudBusinessAccountId', 'cloudAccessToken', 'cloudAppSecret', 'cloudVerifyToken'] as const;
const CLOUD_SECRETS = new Set<string>(['cloudAccessToken', 'cloudAppSecret']);

const EMPTY: ConnectionFormValues = {
  name: '',
  channel: 'baileys',
  greetingMessage: '',
  farewellMessage: '',
  isDefault: false,
  queueIds: [],
  businessHours: null,
  outOfHoursMessage: '',
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
    businessHours: w.businessHours,
    outOfHoursMessage: w.outOfHoursMessage,
    cloudPhoneNumberId: w.cloud?.phoneNumberId,
    cloudBusinessAccountId: w.cloud?.businessAccountId,
    cloudAccessToken: w.cloud?.accessToken,
    cloudAppSecret: w.cloud?.appSecret,
    cloudVerifyToken: w.cloud?.verifyToken,
  };
}

/** Where Meta calls this connection: the server's address as the browser reaches it, and the connection's webhook path. */
function webhookUrl(path: string): string {
  return `${window.location.origin}${path}`;
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

  const channel = form.watch('channel');
  const cloud = channel === 'cloud-api';

  const save = async ({ channel: chosen, ...values }: ConnectionFormValues) => {
    // Cloud API credentials only for a cloud-api connection; a masked secret sent back keeps the stored one.
    const fields: Omit<ConnectionFormValues, 'channel'> = chosen === 'cloud-api' ? values : { ...values, ...Object.fromEntries(CLOUD_FIELDS.map((key) => [key, undefined])) };
    await (editing ? update(whatsappId, fields) : create({ ...fields, channel: chosen }));
  };

  return (
    <FormDialog
      submitDelayMs={MODAL_SUBMIT_DELAY_MS}
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
      {cloud && (
        <Stack spacing={2} data-testid="cloud-api-fields">
          <Alert severity="info" variant="outlined">
            {existing?.cloud ? (
              <>
                {t('connections.cloud.webhookHelp')}
                <Box component="code" data-testid="cloud-webhook-url" sx={{ display: 'block', mt: 0.5, wordBreak: 'break-all' }}>
                  {webhookUrl(existing.cloud.webhookPath)}
                </Box>
              </>
            ) : (
              t('connections.cloud.webhookAfterSave')
            )}
          </Alert>
          {CLOUD_FIELDS.map((name) => (
            <FormTextField
              key={name}
              form={form}
              name={name}
              label={t(`connections.cloud.${name}`)}
              type={CLOUD_SECRETS.has(name) ? 'password' : 'text'}
              autoComplete="off"
              helperText={CLOUD_SECRETS.has(name) && editing ? t('connections.cloud.secretKept') : undefined}
              slotProps={{ htmlInput: { 'data-testid': `field-${name}`, inputMode: name.endsWith('Id') ? 'numeric' : undefined } }}
            />
          ))}
        </Stack>
      )}
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
      <BusinessHoursFields form={form} />
    </FormDialog>
  );
}
