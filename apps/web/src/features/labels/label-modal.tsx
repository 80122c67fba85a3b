import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_LABEL_COLOR, LabelInput, type LabelDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { translateValidation } from '../../i18n/validation-message';
import { QueueColorPicker } from '../queues/queue-color-picker';
import { LabelChip } from './label-chips';
import { useLabelActions } from './labels-api';

interface LabelFormValues {
  name: string;
  color: string;
}

const resolver = zodResolver(LabelInput) as unknown as Resolver<LabelFormValues>;

/** A name already taken is shown under the name as well as in the toast. */
const FIELD_ERRORS = { ERR_DUPLICATED_LABEL: 'name' } as const;

export interface LabelModalProps {
  onClose: () => void;
  /** The label to edit; none means "add a label". */
  label?: LabelDto;
}

/** Add or edit a label: a name (1–30 characters, unique) and a colour (the queues' presets or a custom one). */
export function LabelModal({ onClose, label }: LabelModalProps) {
  const { t } = useTranslation();
  const editing = label !== undefined;
  const { save } = useLabelActions();
  const form = useForm<LabelFormValues>({
    resolver,
    defaultValues: { name: label?.name ?? '', color: label?.color ?? DEFAULT_LABEL_COLOR },
  });
  const [name, color] = useWatch({ control: form.control, name: ['name', 'color'] });

  return (
    <FormDialog
      title={editing ? t('labels.modal.editTitle') : t('labels.modal.addTitle')}
      testId="label-modal"
      form={form}
      onSave={(values) => save(label?.id, values)}
      savedText={t('labels.saved')}
      onClose={onClose}
      editing={editing}
      fieldErrors={FIELD_ERRORS}
    >
      <FormTextField form={form} name="name" label={t('labels.fields.name')} autoFocus slotProps={{ htmlInput: { maxLength: 30 } }} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} aria-live="polite">
        <Typography variant="body2" color="text.secondary">
          {t('labels.fields.preview')}
        </Typography>
        <LabelChip label={{ id: 0, name: name.trim() || t('labels.fields.name'), color: /^#[0-9a-f]{3,8}$/i.test(color) ? color : DEFAULT_LABEL_COLOR }} size="medium" />
      </Box>
      <Controller
        name="color"
        control={form.control}
        render={({ field, fieldState }) => (
          <QueueColorPicker value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={translateValidation(t, fieldState.error?.message)} />
        )}
      />
    </FormDialog>
  );
}
