import { can, type ContactDto } from '@wadesk/contracts';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { useAuth } from '../auth/auth-context';
import { ContactFormFields, contactFormResolver, EMPTY_CONTACT, toContactFormValues, type ContactFormValues } from './contact-form';
import { useContact, useContactActions } from './contacts-api';
import { MODAL_SUBMIT_DELAY_MS } from '../../services/submit-delay';

export type { ContactFormValues } from './contact-form';

export interface ContactModalProps {
  onClose: () => void;
  /** The contact to edit; none means "add a contact". */
  contactId?: number;
  /** Pre-filled values for a new contact. */
  initialValues?: Partial<ContactFormValues>;
  /** Called with the saved contact. */
  onSaved?: (contact: ContactDto) => void;
}

/** Add or edit a contact: name, number, e-mail and the extra info list (§2 modals, §5 validation). */
export function ContactModal({ onClose, contactId, initialValues, onSaved }: ContactModalProps) {
  const { t } = useTranslation();
  const editing = contactId !== undefined;
  const { user } = useAuth();
  // Only admins change a stored contact's number: it decides where every reply goes (server-enforced).
  const numberLocked = editing && !can(user?.profile, 'contacts-page:changeNumber');
  const { data: existing, isLoading } = useContact(contactId);
  const { save } = useContactActions();

  const form = useForm<ContactFormValues>({ resolver: contactFormResolver(existing?.number), defaultValues: { ...EMPTY_CONTACT, ...initialValues } });
  const { reset } = form;

  useEffect(() => {
    if (existing) reset(toContactFormValues(existing));
  }, [existing, reset]);

  const saveContact = async (values: ContactFormValues) => {
    const saved = await save(contactId, values);
    onSaved?.(saved);
  };

  return (
    <FormDialog
      submitDelayMs={MODAL_SUBMIT_DELAY_MS}
      title={editing ? t('contacts.modal.editTitle') : t('contacts.modal.addTitle')}
      testId="contact-modal"
      form={form}
      onSave={saveContact}
      savedText={t('contacts.saved')}
      onClose={onClose}
      editing={editing}
      loading={editing && isLoading}
    >
      <Typography variant="subtitle2" color="text.secondary">
        {t('contacts.modal.mainInfo')}
      </Typography>
      <ContactFormFields form={form} numberLocked={numberLocked} autoFocus labels={editing ? (existing?.labels ?? []) : undefined} />
    </FormDialog>
  );
}
