import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../../i18n/validation-message';
import type { ContactFormValues } from './contact-form';

/** The contact's extra info list: name-value rows that can be added and removed (`stacked`: value under name). */
export function ExtraInfoFields({ form, stacked = false }: { form: UseFormReturn<ContactFormValues>; stacked?: boolean }) {
  const { t } = useTranslation();
  const {
    control,
    register,
    formState: { errors },
  } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'extraInfo', keyName: 'key' });

  return (
    <Stack spacing={1.5} data-testid="extra-info">
      <Typography variant="subtitle2" color="text.secondary">
        {t('contacts.extraInfo.title')}
      </Typography>
      {fields.map((field, index) => {
        const fieldErrors = errors.extraInfo?.[index];
        return (
          <Stack key={field.key} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="extra-info-row">
            <Stack direction={stacked ? 'column' : 'row'} spacing={1} sx={{ flex: 1, minWidth: 0 }}>
            <TextField
              size="small"
              label={t('contacts.extraInfo.name')}
              fullWidth
              {...register(`extraInfo.${index}.name`)}
              error={!!fieldErrors?.name}
              helperText={translateValidation(t, fieldErrors?.name?.message)}
            />
            <TextField
              size="small"
              label={t('contacts.extraInfo.value')}
              fullWidth
              {...register(`extraInfo.${index}.value`)}
              error={!!fieldErrors?.value}
              helperText={translateValidation(t, fieldErrors?.value?.message)}
            />
            </Stack>
            <IconButton
              aria-label={t('contacts.extraInfo.remove', { index: index + 1 })}
              onClick={() => remove(index)}
              sx={{ mt: 0.25 }}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Stack>
        );
      })}
      <Button
        startIcon={<AddIcon />}
        onClick={() => append({ name: '', value: '' })}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('contacts.extraInfo.add')}
      </Button>
    </Stack>
  );
}
