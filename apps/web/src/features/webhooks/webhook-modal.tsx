import { zodResolver } from '@hookform/resolvers/zod';
import { WEBHOOK_EVENTS, WebhookInput, type WebhookDto, type WebhookEvent } from '@wadesk/contracts';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { translateValidation } from '../../i18n/validation-message';
import { toastError, toastSuccess } from '../../services/toast-error';
import { newWebhookSecret, useWebhookActions } from './webhooks-api';

interface WebhookFormValues {
  url: string;
  events: WebhookEvent[];
  secret: string;
  active: boolean;
}

const resolver = zodResolver(WebhookInput) as unknown as Resolver<WebhookFormValues>;

/** A refused address is shown under the URL as well as in the toast. */
const FIELD_ERRORS = { ERR_WEBHOOK_URL_REFUSED: 'url' } as const;

export interface WebhookModalProps {
  onClose: () => void;
  /** The webhook to edit; none means "add a webhook". */
  webhook?: WebhookDto;
}

/**
 * Add or edit a webhook: its public http(s) URL, the events it hears, the secret that signs each delivery (made
 * here for a new one, so it can be copied before saving; "new secret" replaces it) and whether it is on.
 */
export function WebhookModal({ onClose, webhook }: WebhookModalProps) {
  const { t } = useTranslation();
  const editing = webhook !== undefined;
  const { save } = useWebhookActions();
  const form = useForm<WebhookFormValues>({
    resolver,
    defaultValues: {
      url: webhook?.url ?? '',
      events: webhook?.events ?? ['message.created', 'ticket.created', 'ticket.updated'],
      secret: webhook?.secret ?? newWebhookSecret(),
      active: webhook?.active ?? true,
    },
  });

  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(form.getValues('secret'));
      toastSuccess(t('webhooks.secretCopied'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <FormDialog
      title={editing ? t('webhooks.modal.editTitle') : t('webhooks.modal.addTitle')}
      testId="webhook-modal"
      form={form}
      onSave={(values) => save(webhook?.id, values)}
      savedText={t('webhooks.saved')}
      onClose={onClose}
      editing={editing}
      fieldErrors={FIELD_ERRORS}
    >
      <FormTextField
        form={form}
        name="url"
        label={t('webhooks.fields.url')}
        placeholder="https://example.com/desk-events"
        helperText={t('webhooks.fields.urlHelp')}
        autoFocus
        type="url"
        slotProps={{ htmlInput: { maxLength: 2000 } }}
      />
      <Controller
        name="events"
        control={form.control}
        render={({ field, fieldState }) => (
          <FormControl component="fieldset" error={!!fieldState.error} variant="standard">
            <FormLabel component="legend">{t('webhooks.fields.events')}</FormLabel>
            <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {WEBHOOK_EVENTS.map((event) => (
                <FormControlLabel
                  key={event}
                  label={t(`webhooks.events.${event.replace('.', '_')}`)}
                  control={
                    <Checkbox
                      checked={field.value.includes(event)}
                      onBlur={field.onBlur}
                      onChange={(e) => field.onChange(e.target.checked ? [...field.value, event] : field.value.filter((v) => v !== event))}
                    />
                  }
                />
              ))}
            </FormGroup>
            {fieldState.error && <FormHelperText>{translateValidation(t, fieldState.error.message)}</FormHelperText>}
          </FormControl>
        )}
      />
      <FormTextField
        form={form}
        name="secret"
        label={t('webhooks.fields.secret')}
        helperText={t('webhooks.fields.secretHelp')}
        slotProps={{
          htmlInput: { maxLength: 200, spellCheck: false, style: { fontFamily: 'monospace' } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('webhooks.copySecret')}>
                  <IconButton aria-label={t('webhooks.copySecret')} onClick={() => void copySecret()} edge="end">
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('webhooks.newSecret')}>
                  <IconButton aria-label={t('webhooks.newSecret')} onClick={() => form.setValue('secret', newWebhookSecret(), { shouldDirty: true, shouldValidate: true })}>
                    <AutorenewIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Controller
        name="active"
        control={form.control}
        render={({ field }) => (
          <FormControlLabel control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />} label={t('webhooks.fields.active')} />
        )}
      />
    </FormDialog>
  );
}
