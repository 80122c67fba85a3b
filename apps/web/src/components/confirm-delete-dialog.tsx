import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ConfirmDialog } from './confirm-dialog';

export interface ConfirmDeleteDialogProps<T> {
  /** The state of useConfirmedDelete: the dialog is open while it has a target. */
  deletion: ConfirmedDelete<T>;
  /** The question, naming the item: "Delete contact Ana?". */
  title: (item: T) => string;
  /** The warning; a function when it depends on the item ("3 tickets carry it"). */
  text: string | ((item: T) => string);
}

/** The "are you sure?" dialog of a delete button, with a Delete button. */
export function ConfirmDeleteDialog<T>({ deletion, title, text }: ConfirmDeleteDialogProps<T>) {
  const { t } = useTranslation();
  // The item stays named while the dialog fades out.
  const [shown, setShown] = useState<T | null>(deletion.target);
  if (deletion.target !== null && deletion.target !== shown) setShown(deletion.target);
  return (
    <ConfirmDialog
      open={deletion.target !== null}
      title={shown === null ? '' : title(shown)}
      text={typeof text === 'function' ? (shown === null ? '' : text(shown)) : text}
      confirmLabel={t('common.delete')}
      busy={deletion.deleting}
      onConfirm={() => void deletion.confirm()}
      onClose={deletion.cancel}
    />
  );
}
