import { zodResolver } from '@hookform/resolvers/zod';
import { can, ContactInput, type ContactDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { translateValidation } from '../../i18n/validation-message';
import { useAuth } from '../auth/auth-context';
import { toastError, toastSuccess } from '../../services/toast-error';
import { createContact, updateContact, useApplyContactChange, useContact } from './contacts-api';
import { ExtraInfoFields } from './extra-info-fields';

export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
}

const EMPTY: ContactFormValues = { name: '', number: '', email: '', extraInfo: [] };

const resolver = zodResolver(ContactInput) as unknown as Resolver<ContactFormValues>;

function toFormValues(contact: ContactDto): ContactFormValues {
  return {
    name: contact.name,
    number: contact.number,
    email: contact.email,
    extraInfo: contact.extraInfo.map(({ id, name, value }) => ({ id, name, value })),
  };
}

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

  const form = useForm<ContactFormValues>({ resolver, defaultValues: { ...EMPTY, ...initialValues } });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = form;

  useEffect(() => {
    if (existing) reset(toFormValues(existing));
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
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('contacts.fields.name')}
                  autoFocus
                  fullWidth
                  {...register('name')}
                  error={!!errors.name}
                  helperText={translateValidation(t, errors.name?.message)}
                />
                <TextField
                  label={t('contacts.fields.number')}
                  placeholder="5513912344321"
                  fullWidth
                  slotProps={{ htmlInput: { inputMode: 'numeric', readOnly: numberLocked } }}
                  {...register('number')}
                  error={!!errors.number}
                  helperText={
                    errors.number
                      ? translateNumberError(t, errors.number.message)
                      : t(numberLocked ? 'contacts.fields.numberAdminOnly' : 'contacts.fields.numberHelp')
                  }
                />
              </Stack>
              <TextField
                label={t('contacts.fields.email')}
                type="email"
                fullWidth
                {...register('email')}
                error={!!errors.email}
                helperText={translateValidation(t, errors.email?.message)}
              />
              <ExtraInfoFields form={form} />
            </Stack>
          )}
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} disabled={editing && isLoading} />
      </Box>
    </Dialog>
  );
}

/** The number's own rule (digits only) has its text here; the common ones come from validation.*. */
function translateNumberError(t: ReturnType<typeof useTranslation>['t'], message: string | undefined) {
  if (message && /digits only/i.test(message)) return t('contacts.fields.numberInvalid');
  return translateValidation(t, message);
}
