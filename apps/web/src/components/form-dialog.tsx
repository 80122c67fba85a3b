import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage, toastError, toastSuccess } from '../services/toast-error';
import { submitDelay } from '../services/submit-delay';
import { FormDialogActions } from './form-dialog-actions';

export interface FormDialogProps<V extends FieldValues> {
  /** Open unless told otherwise (most dialogs are mounted only while open). */
  open?: boolean;
  title: string;
  testId: string;
  form: UseFormReturn<V>;
  /** Saves the valid values (and updates the caches); a failure is toasted and keeps the dialog open. */
  onSave: (values: V) => Promise<unknown>;
  /** The toast once saved (the dialog then closes). */
  savedText: string;
  onClose: () => void;
  /** Editing an existing item: the submit button reads "Save" instead of "Add". */
  editing: boolean;
  /** The item to edit is still loading: a spinner in place of the fields, and no saving. */
  loading?: boolean;
  /** A wait after Submit before saving (§9: the user, contact and connection forms wait MODAL_SUBMIT_DELAY_MS). */
  submitDelayMs?: number;
  /** Server error codes that belong to one field: shown under it as well as in the toast. */
  fieldErrors?: Partial<Record<string, Path<V>>>;
  /** The fields, one under the other. */
  children: ReactNode;
}

/** An add/edit form in a dialog: title, fields, Cancel and Add/Save (§2 modals). */
export function FormDialog<V extends FieldValues>(props: FormDialogProps<V>) {
  const { open = true, title, testId, form, onSave, savedText, onClose, editing, loading = false, fieldErrors, submitDelayMs = 0, children } = props;
  const { t } = useTranslation();
  const titleId = useId();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (submitDelayMs > 0) await submitDelay(submitDelayMs);
      await onSave(values);
      toastSuccess(savedText);
      onClose();
    } catch (err) {
      toastError(err);
      const { code, text, fields = {} } = errorMessage(err);
      const field = code ? fieldErrors?.[code] : undefined;
      if (field) form.setError(field, { message: text }, { shouldFocus: true });
      // What the server found wrong with a field of this form: under that field, in the user's language.
      const values = form.getValues() as Record<string, unknown>;
      for (const [path, message] of Object.entries(fields)) {
        if (path && path in values) form.setError(path as Path<V>, { message });
      }
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        data-testid={testId}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogContent dividers>
          {loading ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          ) : (
            <Stack spacing={2}>{children}</Stack>
          )}
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={form.formState.isSubmitting} editing={editing} disabled={loading} />
      </Box>
    </Dialog>
  );
}
