import { zodResolver } from '@hookform/resolvers/zod';
import { OutreachStartInput, parseRecipients, VOICE_LANGUAGES, type OutreachChannel, type OutreachStartInput as OutreachStart } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import SendIcon from '@mui/icons-material/Send';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ErrorText } from '../../components/error-text';
import { FormTextField } from '../../components/form-text-field';
import { errorMessage, type ShownError } from '../../services/toast-error';
import { startOutreach } from './outreach-api';

type VoiceLanguage = (typeof VOICE_LANGUAGES)[number];

interface OutreachFormValues {
  from: string;
  recipients: string;
  text: string;
  /** Voice: null follows the interface's language until one is picked (issue 33 item 17). */
  language: VoiceLanguage | null;
}

/** The text-to-speech language matching the interface's language. */
function voiceLanguageOf(lang: string): VoiceLanguage {
  if (lang.startsWith('en')) return 'en-US';
  if (lang.startsWith('es')) return 'es-ES';
  return 'pt-BR';
}

/**
 * The server's rule for a batch (OutreachStartInput) for one channel's page: a sender for SMS and voice, and every
 * recipient line valid for the channel (the lines that are not are listed under the field).
 */
function outreachFormSchema(channel: OutreachChannel) {
  const needsFrom = channel !== 'instagram';
  return OutreachStartInput.omit({ channel: true, language: true })
    .extend({ from: needsFrom ? OutreachStartInput.shape.from.unwrap() : z.string().optional(), language: z.enum(VOICE_LANGUAGES).nullable() })
    .superRefine((values, ctx) => {
      const parsed = parseRecipients(channel, values.recipients);
      if (parsed.invalid.length > 0 || parsed.recipients.length === 0) ctx.addIssue({ code: 'custom', path: ['recipients'], message: 'Required' });
    });
}

/** The form of /SMS, /VoiceCall and /InstaDirect: sender, recipients (one a line), text and, for calls, the voice's language. */
export function OutreachForm({ channel, onStarted }: { channel: OutreachChannel; onStarted: (batchId: number) => void }) {
  const { t, i18n } = useTranslation();
  const needsFrom = channel !== 'instagram';
  const resolver = useMemo(() => zodResolver(outreachFormSchema(channel)) as unknown as Resolver<OutreachFormValues>, [channel]);
  const form = useForm<OutreachFormValues>({ resolver, mode: 'onChange', defaultValues: { from: '', recipients: '', text: '', language: null } });
  const [error, setError] = useState<ShownError | null>(null);
  const recipients = useWatch({ control: form.control, name: 'recipients' });
  const parsed = parseRecipients(channel, recipients);
  const chosenLanguage = useWatch({ control: form.control, name: 'language' });
  const language = chosenLanguage ?? voiceLanguageOf(i18n.resolvedLanguage ?? i18n.language);
  const { isValid, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const input: OutreachStart = {
        channel,
        recipients: values.recipients,
        text: values.text,
        ...(needsFrom ? { from: values.from } : {}),
        ...(channel === 'voice' ? { language } : {}),
      };
      const { batch } = await startOutreach(input);
      onStarted(batch.id);
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" noValidate onSubmit={(e) => void submit(e)}>
      <Stack spacing={2}>
        {needsFrom && <FormTextField form={form} name="from" label={t('outreach.from')} size="small" required helperText={t('outreach.fromHelp')} />}
        <FormTextField
          form={form}
          name="recipients"
          label={t(channel === 'instagram' ? 'outreach.recipientsIg' : 'outreach.recipients')}
          multiline
          minRows={3}
          required
          // The lines the channel does not take, as they are typed; else how many recipients.
          errorText={() =>
            parsed.invalid.length > 0 ? t('outreach.invalidLines', { lines: parsed.invalid.join(', ') }) : t('outreach.recipientCount', { count: parsed.recipients.length })
          }
          slotProps={{ htmlInput: { 'data-testid': 'outreach-recipients' } }}
        />
        <FormTextField
          form={form}
          name="text"
          label={t(channel === 'voice' ? 'outreach.speech' : 'outreach.message')}
          multiline
          minRows={2}
          required
          slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'outreach-text' } }}
        />
        {channel === 'voice' && (
          <Controller
            control={form.control}
            name="language"
            render={({ field }) => (
              <FormControl size="small" sx={{ maxWidth: 260 }}>
                <InputLabel id="outreach-language">{t('outreach.language')}</InputLabel>
                {/* Shows the interface's language while none is picked. */}
                <Select labelId="outreach-language" label={t('outreach.language')} value={language} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur}>
                  {VOICE_LANGUAGES.map((l) => (
                    <MenuItem key={l} value={l}>
                      {t(`outreach.languages.${l}`)}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
            )}
          />
        )}
        {error && (
          <Alert severity="error" data-testid="outreach-error">
            <ErrorText error={error} />
          </Alert>
        )}
        <Box>
          <Button
            type="submit"
            variant="contained"
            startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
            disabled={isSubmitting || !isValid}
            data-testid="outreach-send"
          >
            {t(channel === 'voice' ? 'outreach.call' : 'outreach.send')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
