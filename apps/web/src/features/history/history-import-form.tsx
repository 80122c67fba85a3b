import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { DEFAULT_HISTORY_LIMIT, HistoryImportInput, type HistoryImportStartedResponse } from '@wadesk/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import { toastError, toastSuccess } from '../../services/toast-error';
import { startHistoryImport } from './history-api';

interface Values {
  limit: string;
  contactNumber: string;
}

export interface HistoryImportFormProps {
  whatsappId: number | null;
  /** Only this contact's chat (the chat panel): no choice of scope then. */
  contactNumber?: string;
  onStarted: (started: HistoryImportStartedResponse) => void;
}

/** Starts an import: the newest `limit` messages of each chat, every chat or one contact's. */
export function HistoryImportForm({ whatsappId, contactNumber, onStarted }: HistoryImportFormProps) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<'all' | 'one'>('all');
  const form = useForm<Values>({ defaultValues: { limit: String(DEFAULT_HISTORY_LIMIT), contactNumber: '' } });
  const one = contactNumber !== undefined || scope === 'one';
  const submit = form.handleSubmit(async (values) => {
    // The server's own schema checks the fields first (the contact's number only when one contact is chosen).
    const parsed = HistoryImportInput.safeParse({
      whatsappId: whatsappId ?? undefined,
      limit: values.limit,
      ...(one ? { contactNumber: contactNumber ?? values.contactNumber } : {}),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'limit' || field === 'contactNumber') form.setError(field, { message: issue.message });
      }
      return;
    }
    try {
      const started = await startHistoryImport(parsed.data);
      toastSuccess(t('historyImport.started'));
      onStarted(started);
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={(e) => void submit(e)} noValidate data-testid="history-import-form">
      {contactNumber === undefined && (
        <RadioGroup
          row
          value={scope}
          onChange={(e) => {
            setScope(e.target.value as 'all' | 'one');
            form.clearErrors('contactNumber');
          }}
          aria-label={t('historyImport.scope')}
        >
          <FormControlLabel value="all" control={<Radio />} label={t('historyImport.allChats')} data-testid="history-scope-all" />
          <FormControlLabel value="one" control={<Radio />} label={t('historyImport.oneContactLabel')} data-testid="history-scope-one" />
        </RadioGroup>
      )}
      {contactNumber === undefined && scope === 'one' && (
        <FormTextField form={form} name="contactNumber" label={t('historyImport.contactNumber')} helperText={t('historyImport.contactNumberHelp')} inputMode="tel" />
      )}
      <FormTextField
        form={form}
        name="limit"
        label={t('historyImport.limit')}
        helperText={t('historyImport.limitHelp')}
        errorText={(message) => (message ? t('historyImport.limitError') : undefined)}
        type="number"
        slotProps={{ htmlInput: { min: 1, max: 5000, 'data-testid': 'history-limit' } }}
      />
      <Button type="submit" variant="contained" startIcon={<PlayArrowIcon />} disabled={form.formState.isSubmitting || whatsappId === null} data-testid="history-import-start">
        {t('historyImport.start')}
      </Button>
    </Stack>
  );
}
