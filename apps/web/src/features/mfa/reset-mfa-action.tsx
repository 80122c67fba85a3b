import type { UserDto } from '@wadesk/contracts';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { toastError, toastSuccess } from '../../services/toast-error';
import { USERS_KEY } from '../users/users-api';
import { resetUserMfa } from './mfa-api';

/** The users table's "Reset two-factor" button (a user who lost their phone), for users who have it on. */
export function ResetMfaButton({ user, onClick }: { user: UserDto; onClick: (user: UserDto) => void }) {
  const { t } = useTranslation();
  if (!user.mfaEnabled) return null;
  const label = t('mfa.reset.action', { name: user.name });
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={() => onClick(user)} data-testid="mfa-reset">
        <PhonelinkEraseIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** The confirmation of a reset; kept by the page, outside the table, so a refreshed list does not close it. */
export function ResetMfaDialog({ user, onClose }: { user: UserDto; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const reset = async () => {
    setBusy(true);
    try {
      await resetUserMfa(user.id);
      toastSuccess(t('mfa.reset.done', { name: user.name }));
      onClose();
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open
      title={t('mfa.reset.confirmTitle', { name: user.name })}
      text={t('mfa.reset.confirmText')}
      confirmLabel={t('mfa.reset.confirm')}
      busy={busy}
      onConfirm={() => void reset()}
      onClose={onClose}
    />
  );
}
