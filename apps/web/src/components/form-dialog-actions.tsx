import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import { useTranslation } from 'react-i18next';

export interface FormDialogActionsProps {
  /** Closes the dialog (the cancel button). */
  onCancel: () => void;
  /** The form is being submitted: both buttons are disabled. */
  submitting: boolean;
  /** Editing an existing item: the submit button reads "save" instead of "add". */
  editing: boolean;
  /** Disables the submit button for another reason (e.g. the item is still loading). */
  disabled?: boolean;
}

/** Cancel and submit buttons at the foot of an add/edit form dialog; must sit inside the form. */
export function FormDialogActions({ onCancel, submitting, editing, disabled = false }: FormDialogActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={submitting}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" variant="contained" disabled={submitting || disabled}>
        {editing ? t('common.save') : t('common.add')}
      </Button>
    </DialogActions>
  );
}
