import { zodResolver } from '@hookform/resolvers/zod';
import { ContactInput, ContactUpdateInput, labelIdsField, NUMBER_PROBLEM_MESSAGES, type ContactDto } from '@wadesk/contracts';
import Stack from '@mui/material/Stack';
import { Controller, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import { translateValidation } from '../../i18n/validation-message';
import { LabelSelect } from '../labels/label-select';
import { ExtraInfoFields } from './extra-info-fields';

/** The contact form's values: the same fields and rules (§5) as the server's ContactInput. */
export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
  /** The contact's labels (issue 36 §2): set when editing a contact (PUT), not on creation. */
  labelIds: number[];
}

export const EMPTY_CONTACT: ContactFormValues = { name: '', number: '', email: '', extraInfo: [], labelIds: [] };

const newContactResolver = zodResolver(ContactInput) as unknown as Resolver<ContactFormValues>;
const storedNumberResolver = zodResolver(ContactUpdateInput) as unknown as Resolver<ContactFormValues>;
/** An edited contact whose number is typed anew: the phone rule, and its labels still go with it. */
const changedNumberResolver = zodResolver(ContactInput.extend({ labelIds: labelIdsField.optional() })) as unknown as Resolver<ContactFormValues>;

/**
 * One schema, three uses: the server validates with ContactInput, and so does every contact form. An edited
 * contact's stored number is sent back as it is (a group or another channel keeps an id the phone rule refuses);
 * a number typed in its place follows the phone-number rule (issue 33 item 11).
 */
export function contactFormResolver(storedNumber?: string): Resolver<ContactFormValues> {
  return (values, context, options) => {
    if (storedNumber === undefined) return newContactResolver(values, context, options);
    return (values.number.trim() === storedNumber ? storedNumberResolver : changedNumberResolver)(values, context, options);
  };
}

export function toContactFormValues(contact: ContactDto): ContactFormValues {
  return {
    name: contact.name,
    number: contact.number,
    email: contact.email,
    extraInfo: contact.extraInfo.map(({ id, name, value }) => ({ id, name, value })),
    labelIds: contact.labels.map((l) => l.id),
  };
}

const NUMBER_PROBLEM_KEYS = new Map(Object.entries(NUMBER_PROBLEM_MESSAGES).map(([reason, text]) => [text, `validation.number.${reason}`]));

/** The phone-number rule's problems (issue 33 item 11) are translated here; the common ones come from validation.*. */
export function translateNumberError(t: ReturnType<typeof useTranslation>['t'], message: string | undefined) {
  const key = message ? NUMBER_PROBLEM_KEYS.get(message) : undefined;
  if (key) return t(key);
  return translateValidation(t, message);
}

export interface ContactFormFieldsProps {
  form: UseFormReturn<ContactFormValues>;
  /** Users may not change a stored contact's number (decision 0006): shown read-only, with the reason. */
  numberLocked: boolean;
  /** One field a line, for narrow places (the contact panel). */
  compact?: boolean;
  autoFocus?: boolean;
  /** The contact's labels as they are (an edited contact): shows the label picker. */
  labels?: ContactDto['labels'];
}

/** Name, number, e-mail and extra info fields of a contact form. */
export function ContactFormFields({ form, numberLocked, compact = false, autoFocus = false, labels }: ContactFormFieldsProps) {
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
          placeholder="+55 11 95555-4444"
          size={size}
          slotProps={{ htmlInput: { inputMode: 'tel', readOnly: numberLocked } }}
          errorText={(message) => translateNumberError(t, message)}
          helperText={t(numberLocked ? 'contacts.fields.numberAdminOnly' : 'contacts.fields.numberHelp')}
        />
      </Stack>
      <FormTextField form={form} name="email" label={t('contacts.fields.email')} type="email" size={size} />
      {labels && (
        <Controller
          name="labelIds"
          control={form.control}
          render={({ field }) => <LabelSelect value={field.value} onChange={field.onChange} current={labels} size={size} testId="contact-label-select" />}
        />
      )}
      <ExtraInfoFields form={form} stacked={compact} />
    </>
  );
}
