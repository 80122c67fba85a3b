import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_QUEUE_COLOR, QueueInput, type QueueDto } from '@wadesk/contracts';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { translateValidation } from '../../i18n/validation-message';
import { BusinessHoursFields, type BusinessHoursFormValues } from '../business-hours/business-hours-fields';
import { QueueColorPicker } from './queue-color-picker';
import { useQueueActions } from './queues-api';

interface QueueFormValues extends BusinessHoursFormValues {
  name: string;
  color: string;
  greetingMessage: string;
  autoAssign: boolean;
}

const resolver = zodResolver(QueueInput) as unknown as Resolver<QueueFormValues>;

/** Server codes that belong to one field: shown under it as well as in the toast. */
const FIELD_ERRORS = {
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 'color',
  ERR_QUEUE_NAME_ALREADY_EXISTS: 'name',
} as const;

export interface QueueModalProps {
  onClose: () => void;
  /** The queue to edit; none means "add a queue". */
  queue?: QueueDto;
}

/** Add or edit a queue: name, colour (50 presets or a custom one), greeting (§5), automatic assignment and hours (issue 36). */
export function QueueModal({ onClose, queue }: QueueModalProps) {
  const { t } = useTranslation();
  const editing = queue !== undefined;
  const { save } = useQueueActions();
  const form = useForm<QueueFormValues>({
    resolver,
    defaultValues: {
      name: queue?.name ?? '',
      color: queue?.color ?? DEFAULT_QUEUE_COLOR,
      greetingMessage: queue?.greetingMessage ?? '',
      autoAssign: queue?.autoAssign ?? false,
      businessHours: queue?.businessHours ?? null,
      outOfHoursMessage: queue?.outOfHoursMessage ?? '',
    },
  });

  return (
    <FormDialog
      title={editing ? t('queues.modal.editTitle') : t('queues.modal.addTitle')}
      testId="queue-modal"
      form={form}
      onSave={(values) => save(queue?.id, values)}
      savedText={t('queues.saved')}
      onClose={onClose}
      editing={editing}
      fieldErrors={FIELD_ERRORS}
    >
      <FormTextField form={form} name="name" label={t('queues.fields.name')} autoFocus />
      <Controller
        name="color"
        control={form.control}
        render={({ field, fieldState }) => (
          <QueueColorPicker
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={translateValidation(t, fieldState.error?.message)}
          />
        )}
      />
      <FormTextField
        form={form}
        name="greetingMessage"
        label={t('queues.fields.greeting')}
        multiline
        minRows={3}
        maxRows={10}
        helperText={t('queues.fields.greetingHelp')}
      />
      <Controller
        name="autoAssign"
        control={form.control}
        render={({ field }) => (
          <div>
            <FormControlLabel
              control={
                <Switch
                  checked={field.value}
                  onChange={(e) => field.onChange(e.target.checked)}
                  onBlur={field.onBlur}
                  slotProps={{ input: { 'aria-describedby': 'queue-auto-assign-help' } }}
                />
              }
              label={t('queues.fields.autoAssign')}
            />
            <FormHelperText id="queue-auto-assign-help" sx={{ mt: 0 }}>
              {t('queues.fields.autoAssignHelp')}
            </FormHelperText>
          </div>
        )}
      />
      <BusinessHoursFields form={form} />
    </FormDialog>
  );
}
