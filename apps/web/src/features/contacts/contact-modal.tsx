import { can, type ContactDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { useAuth } from '../auth/auth-context';
import { toastError, toastSuccess } from '../../services/toast-error';
import { ContactFormFields, contactFormResolver, EMPTY_CONTACT, toContactFormValues, type ContactFormValues } from './contact-form';
import { createContact, updateContact, useApplyContactChange, useContact } from './contacts-api';

export type { ContactFormValues } from './contact-form';

export interface ContactModalProps {
  onClose: () => void;
  /** The contact to edit; none means "add a contact". */
  contactId?: number;
  /** Pre-filled values for a new contact. */
  initialValues?: Partial<ContactFormValues>;
  /** Called with the saved contact (after the toast). */
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
  const applyChange = useApplyContactChange();

  const form = useForm<ContactFormValues>({ resolver: contactFormResolver, defaultValues: { ...EMPTY_CONTACT, ...initialValues } });
  const {
    handleSubmit,
    reset,
    formState: { isSubmitting },
  } = form;

  useEffect(() => {
    if (existing) reset(toContactFormValues(existing));
  }, [existing, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = editing ? await updateContact(contactId, values) : await createContact(values);
      applyChange({ action: editing ? 'update' : 'create', contact: saved });
      toastSuccess(t('contacts.saved'));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby="contact-modal-title">
      <DialogTitle id="contact-modal-title">
        {editing ? t('contacts.modal.editTitle') : t('contacts.modal.addTitle')}
      </DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        data-testid="contact-modal"
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogContent dividers>
          {editing && isLoading ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          ) : (
            <Stack spacing={2}>
              <Typography variant="subtitle2" color="text.secondary">
                {t('contacts.modal.mainInfo')}
              </Typography>
              <ContactFormFields form={form} numberLocked={numberLocked} autoFocus />
            </Stack>
          )}
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} disabled={editing && isLoading} />
      </Box>
    </Dialog>
  );
}
