import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import type { ContactFormValues } from './contact-form';

/** The contact's extra info list: name-value rows that can be added and removed (`stacked`: value under name). */
export function ExtraInfoFields({ form, stacked = false }: { form: UseFormReturn<ContactFormValues>; stacked?: boolean }) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'extraInfo', keyName: 'key' });

  return (
    <Stack spacing={1.5} data-testid="extra-info">
      <Typography variant="subtitle2" color="text.secondary">
        {t('contacts.extraInfo.title')}
      </Typography>
      {fields.map((field, index) => (
        <Stack key={field.key} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="extra-info-row">
          <Stack direction={stacked ? 'column' : 'row'} spacing={1} sx={{ flex: 1, minWidth: 0 }}>
            <FormTextField form={form} name={`extraInfo.${index}.name`} label={t('contacts.extraInfo.name')} size="small" />
            <FormTextField form={form} name={`extraInfo.${index}.value`} label={t('contacts.extraInfo.value')} size="small" />
          </Stack>
          <IconButton
            aria-label={t('contacts.extraInfo.remove', { index: index + 1 })}
            onClick={() => remove(index)}
            sx={{ mt: 0.25 }}
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Stack>
      ))}
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
