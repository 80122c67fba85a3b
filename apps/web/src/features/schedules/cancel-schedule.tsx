import type { ScheduleDto } from '@wadesk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { toastError, toastSuccess } from '../../services/toast-error';
import { cancelSchedule, SCHEDULES_KEY } from './schedules-api';

/**
 * Cancelling a scheduled message after a confirmation, for the schedules page and the contact drawer: `ask(schedule)`
 * opens the confirmation that `dialog` renders; confirmed, the message is cancelled and the lists are read again.
 */
export function useCancelSchedule(): { ask: (schedule: ScheduleDto) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState<ScheduleDto | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (!cancelling) return;
    setBusy(true);
    try {
      await cancelSchedule(cancelling.id);
      toastSuccess(t('schedules.cancelled'));
      void queryClient.invalidateQueries({ queryKey: [...SCHEDULES_KEY, 'list'] });
      setCancelling(null);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={cancelling !== null}
      title={t('schedules.cancelTitle')}
      text={t('schedules.cancelText')}
      confirmLabel={t('schedules.cancel')}
      dismissLabel={t('schedules.keepScheduled')}
      busy={busy}
      onConfirm={() => void confirm()}
      onClose={() => setCancelling(null)}
    />
  );
  return { ask: setCancelling, dialog };
}
