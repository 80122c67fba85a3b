import { zodResolver } from '@hookform/resolvers/zod';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  CAMPAIGN_BLOCK_ADVICE,
  CAMPAIGN_FIELDS,
  CampaignInput,
  MAX_CAMPAIGN_INTERVAL,
  parseNumberLines,
  type CampaignCreatedResponse,
  type CampaignKind,
  type MessageTemplate,
} from '@wadesk/contracts';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSelect } from '../../components/form-select';
import { FormTextField } from '../../components/form-text-field';
import { errorMessage, toastError, toastSuccess } from '../../services/toast-error';
import { TemplatePicker } from '../chat/template-picker';
import { useWhatsapps } from '../connections/connections-api';
import { startCampaign } from './campaigns-api';

interface CampaignFormValues {
  kind: CampaignKind;
  whatsappId: number | null;
  numbers: string;
  message: string;
  url: string;
  title: string;
  path: string;
  minInterval: string;
  maxInterval: string;
  /** The approved template of a text send on a Cloud API connection (issue 18). */
  template?: MessageTemplate;
}

const resolver = zodResolver(CampaignInput) as unknown as Resolver<CampaignFormValues>;

/** How many invalid lines the form lists under the numbers (the rest are counted). */
const SHOWN_INVALID = 5;

export interface CampaignFormProps {
  kind: CampaignKind;
  onStarted: (created: CampaignCreatedResponse) => void;
  /** Shown under the path field of /ZDGMedia2. */
  pathHelp?: string;
  /** The bulk media folder's files, relative to it: offered while typing the path (issue 33 item 14). */
  pathFiles?: string[];
}

/** The fields of one bulk-send tool (§2, §5: all required), with a live count of valid and invalid lines. */
export function CampaignForm({ kind, onStarted, pathHelp, pathFiles = [] }: CampaignFormProps) {
  const { t } = useTranslation();
  const { data: connections = [] } = useWhatsapps();
  const form = useForm<CampaignFormValues>({
    resolver,
    defaultValues: { kind, whatsappId: null, numbers: '', message: '', url: '', title: '', path: '', minInterval: '5', maxInterval: '15' },
  });
  const defaultId = connections.find((c) => c.isDefault)?.id ?? connections[0]?.id ?? null;
  useEffect(() => {
    if (form.getValues('whatsappId') === null && defaultId !== null) form.setValue('whatsappId', defaultId);
  }, [defaultId, form]);

  const numbersText = useWatch({ control: form.control, name: 'numbers' });
  const lines = useMemo(() => parseNumberLines(numbersText ?? ''), [numbersText]);
  const fields = CAMPAIGN_FIELDS[kind];
  const whatsappId = useWatch({ control: form.control, name: 'whatsappId' });
  /** A Cloud API connection sends an approved template instead of free text (issue 18). */
  const cloud = whatsappId !== null && connections.find((c) => c.id === whatsappId)?.channel === 'cloud-api';
  useEffect(() => {
    if (!cloud) form.setValue('template', undefined);
  }, [cloud, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const created = await startCampaign({
        kind,
        whatsappId: values.whatsappId ?? undefined,
        numbers: values.numbers,
        minInterval: values.minInterval,
        maxInterval: values.maxInterval,
        ...(cloud ? { template: values.template } : Object.fromEntries(fields.map((f) => [f, values[f]]))),
      });
      toastSuccess(t('campaigns.started', { count: created.total }));
      onStarted(created);
    } catch (err) {
      toastError(err);
      // What the server refused in a field (a local URL, a file outside the folder): said under that field too.
      for (const [path, message] of Object.entries(errorMessage(err).fields ?? {})) {
        if (path === 'url' || path === 'path' || path === 'title' || path === 'message') form.setError(path, { message });
      }
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={(e) => void submit(e)} noValidate data-testid="campaign-form">
      <FormSelect
        form={form}
        name="whatsappId"
        label={t('campaigns.fields.connection')}
        options={connections.map((c) => ({ value: c.id, label: `${c.name} (${t(`connections.status.${c.status}`)})` }))}
      />
      <FormTextField
        form={form}
        name="numbers"
        label={t('campaigns.fields.numbers')}
        multiline
        minRows={5}
        maxRows={12}
        placeholder={'5511987654321\n5521987654321'}
        helperText={t('campaigns.fields.numbersHelp')}
        slotProps={{ htmlInput: { 'data-testid': 'campaign-numbers' } }}
      />
      <Typography variant="body2" data-testid="campaign-line-count" color={lines.invalid.length ? 'warning.main' : 'text.secondary'}>
        {t('campaigns.lineCount', { valid: lines.numbers.length, invalid: lines.invalid.length })}
      </Typography>
      {lines.invalid.length > 0 && (
        <Alert severity="warning" data-testid="campaign-invalid-lines">
          {lines.invalid.slice(0, SHOWN_INVALID).map((l) => (
            <div key={l.line}>{t('campaigns.invalidLine', { line: l.line, text: l.text, reason: t(`campaigns.reasons.${l.reason}`) })}</div>
          ))}
          {lines.invalid.length > SHOWN_INVALID && <div>{t('campaigns.moreInvalid', { count: lines.invalid.length - SHOWN_INVALID })}</div>}
        </Alert>
      )}
      {cloud && kind === 'text' && whatsappId !== null && (
        <TemplatePicker
          key={whatsappId}
          whatsappId={whatsappId}
          error={form.formState.errors.message || form.formState.errors.template ? t('chat.template.required') : undefined}
          onChange={(value) => form.setValue('template', value ?? undefined, { shouldValidate: form.formState.isSubmitted })}
        />
      )}
      {cloud && kind !== 'text' && (
        <Alert severity="warning" data-testid="campaign-cloud-no-media">
          {t('chat.template.noMediaBulk')}
        </Alert>
      )}
      {!cloud && fields.includes('message') && (
        <FormTextField form={form} name="message" label={t('campaigns.fields.message')} multiline minRows={3} maxRows={10} />
      )}
      {fields.includes('url') && (
        <FormTextField
          form={form}
          name="url"
          label={t(kind === 'audio' ? 'campaigns.fields.audioUrl' : 'campaigns.fields.url')}
          placeholder={kind === 'audio' ? 'https://…/audio.ogg' : 'https://…'}
          type="url"
        />
      )}
      {fields.includes('path') && (
        <>
          {/* Pick one of the folder's files or type a name relative to it. */}
          <FormTextField
            form={form}
            name="path"
            label={t('campaigns.fields.path')}
            placeholder="promos/file.pdf"
            helperText={pathHelp}
            slotProps={{ htmlInput: { list: 'bulk-media-files', autoComplete: 'off' } }}
          />
          <datalist id="bulk-media-files" data-testid="bulk-media-files">
            {pathFiles.map((file) => (
              <option key={file} value={file} />
            ))}
          </datalist>
        </>
      )}
      {fields.includes('title') && <FormTextField form={form} name="title" label={t('campaigns.fields.title')} />}
      <Stack direction="row" spacing={2}>
        <FormTextField
          form={form}
          name="minInterval"
          label={t('campaigns.fields.minInterval')}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: MAX_CAMPAIGN_INTERVAL } }}
        />
        <FormTextField
          form={form}
          name="maxInterval"
          label={t('campaigns.fields.maxInterval')}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: MAX_CAMPAIGN_INTERVAL } }}
        />
      </Stack>
      <Alert severity="info">{t('campaigns.blockAdvice', { count: CAMPAIGN_BLOCK_ADVICE })}</Alert>
      <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={form.formState.isSubmitting} data-testid="campaign-send">
        {t('campaigns.send')}
      </Button>
    </Stack>
  );
}
