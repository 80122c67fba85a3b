import { zodResolver } from '@hookform/resolvers/zod';
import { ContactInput, type ContactDto } from '@wadesk/contracts';
import Stack from '@mui/material/Stack';
import type { Resolver, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import { translateValidation } from '../../i18n/validation-message';
import { ExtraInfoFields } from './extra-info-fields';

/** The contact form's values: the same fields and rules (§5) as the server's ContactInput. */
export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
}

export const EMPTY_CONTACT: ContactFormValues = { name: '', number: '', email: '', extraInfo: [] };

/** One schema, three uses: the server validates with ContactInput, and so does every contact form. */
export const contactFormResolver = zodResolver(ContactInput) as unknown as Resolver<ContactFormValues>;

export function toContactFormValues(contact: ContactDto): ContactFormValues {
  return {
    name: contact.name,
    number: contact.number,
    email: contact.email,
    extraInfo: contact.extraInfo.map(({ id, name, value }) => ({ id, name, value })),
  };
}

/** The number's own rule (digits only) has its text here; the common ones come from validation.*. */
export function translateNumberError(t: ReturnType<typeof useTranslation>['t'], message: string | undefined) {
  if (message && /digits only/i.test(message)) return t('contacts.fields.numberInvalid');
  return translateValidation(t, message);
}

export interface ContactFormFieldsProps {
  form: UseFormReturn<ContactFormValues>;
  /** Users may not change a stored contact's number (decision 0006): shown read-only, with the reason. */
  numberLocked: boolean;
  /** One field a line, for narrow places (the contact panel). */
  compact?: boolean;
  autoFocus?: boolean;
}

/** Name, number, e-mail and extra info fields of a contact form. */
export function ContactFormFields({ form, numberLocked, compact = false, autoFocus = false }: ContactFormFieldsProps) {
  const { t } = useTranslation();
  const size = compact ? 'small' : 'medium';
  return (
    <>
      <Stack direction={compact ? 'column' : { xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField form={form} name="name" label={t('contacts.fields.name')} autoFocus={autoFocus} size={size} />
        <FormTextField
          form={form}
          name="number"
          label={t('contacts.fields.number')}
          placeholder="5513912344321"
          size={size}
          slotProps={{ htmlInput: { inputMode: 'numeric', readOnly: numberLocked } }}
          errorText={(message) => translateNumberError(t, message)}
          helperText={t(numberLocked ? 'contacts.fields.numberAdminOnly' : 'contacts.fields.numberHelp')}
        />
      </Stack>
      <FormTextField form={form} name="email" label={t('contacts.fields.email')} type="email" size={size} />
      <ExtraInfoFields form={form} stacked={compact} />
    </>
  );
}
