import StopIcon from '@mui/icons-material/Stop';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { HistoryImportDto, HistoryImportStatus } from '@wadesk/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { JobProgress } from '../../components/job-progress';
import { isActiveJob } from '../../services/live-record';
import { toastError } from '../../services/toast-error';
import { cancelHistoryImport, useApplyHistoryImport } from './history-api';

export const HISTORY_IMPORT_COLORS: Record<HistoryImportStatus, ChipProps['color']> = {
  queued: 'default',
  running: 'info',
  done: 'success',
  cancelled: 'default',
};

/** One import under way or finished: `chats done / total`, messages imported, cancel, and the summary at the end. */
export function HistoryImportPanel({ item }: { item: HistoryImportDto }) {
  const { t } = useTranslation();
  const apply = useApplyHistoryImport();
  const [busy, setBusy] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const active = isActiveJob(item);
  const cancel = async () => {
    setBusy(true);
    try {
      apply(await cancelHistoryImport(item.id));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
      setConfirmCancel(false);
    }
  };
  const caption = [
    t(`historyImport.status.${item.status}`),
    t('historyImport.messagesImported', { count: item.messagesImported }),
    item.contactNumber ? t('historyImport.oneContact', { number: item.contactNumber }) : t('historyImport.allChats'),
    t('historyImport.limitCaption', { count: item.limit }),
  ].join(' · ');

  return (
    <Stack spacing={2} data-testid="history-import-panel">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('historyImport.importTitle', { id: item.id, connection: item.whatsappName ?? item.whatsappId })}{' '}
          <Chip size="small" label={t(`historyImport.status.${item.status}`)} color={HISTORY_IMPORT_COLORS[item.status]} data-testid="history-import-status" />
        </Typography>
        {active && (
          <Button size="small" color="error" startIcon={<StopIcon />} onClick={() => setConfirmCancel(true)} disabled={busy} data-testid="history-import-cancel">
            {t('historyImport.cancel')}
          </Button>
        )}
      </Stack>
      <JobProgress done={item.chatsDone} total={item.chatsTotal} caption={caption} testId="history-import-progress" />
      {item.status === 'done' && (
        <Alert severity="success" data-testid="history-import-summary">
          {t('historyImport.summary', {
            messages: t('historyImport.messagesImported', { count: item.messagesImported }),
            chats: t('historyImport.fromChats', { count: item.chatsTotal }),
            created: t('historyImport.ticketsCreated', { count: item.ticketsCreated }),
            joined: t('historyImport.ticketsJoined', { count: item.ticketsJoined }),
            skipped: t('historyImport.alreadyThere', { count: item.messagesSkipped }),
          })}
          {item.groupsSkipped > 0 && ` ${t('historyImport.groupsSkipped', { count: item.groupsSkipped })}`}
        </Alert>
      )}
      {item.status === 'done' && item.olderRequested > 0 && (
        <Alert severity="info" data-testid="history-import-older">
          {t('historyImport.olderRequested', { count: item.olderRequested })}
        </Alert>
      )}
      {item.lastError && <Alert severity="info">{item.lastError}</Alert>}
      <ConfirmDialog
        open={confirmCancel}
        title={t('historyImport.cancelTitle')}
        text={t('historyImport.cancelText')}
        confirmLabel={t('historyImport.cancel')}
        busy={busy}
        onConfirm={() => void cancel()}
        onClose={() => setConfirmCancel(false)}
      />
    </Stack>
  );
}
