import { useCallback, useState } from 'react';
import { toastError } from '../services/toast-error';

export interface ConfirmedDelete<T> {
  /** The item asked about; the dialog is open while there is one. */
  target: T | null;
  ask: (item: T) => void;
  cancel: () => void;
  confirm: () => Promise<void>;
  deleting: boolean;
}

/**
 * The "are you sure?" step before deleting: `ask(item)` picks the item (the dialog opens on `target`), `cancel()`
 * drops it, `confirm()` runs `remove`, then `onDeleted` and closes; a failure is toasted and keeps the dialog open.
 */
export function useConfirmedDelete<T>(remove: (item: T) => Promise<unknown>, onDeleted: (item: T) => void): ConfirmedDelete<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [deleting, setDeleting] = useState(false);
  // Stable, so memoized lists can take it as a prop.
  const ask = useCallback((item: T) => setTarget(item), []);

  const confirm = async () => {
    if (!target) return;
    setDeleting(true);
    try {
      await remove(target);
      onDeleted(target);
      setTarget(null);
    } catch (err) {
      toastError(err);
    } finally {
      setDeleting(false);
    }
  };

  return {
    target,
    ask,
    cancel: () => setTarget(null),
    confirm,
    deleting,
  };
}
