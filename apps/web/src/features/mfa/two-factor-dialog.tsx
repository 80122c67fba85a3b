import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context';
import { MfaDisable } from './mfa-disable';
import { MfaSetup } from './mfa-setup';

/** The user menu's "Two-factor sign-in": turn it on (QR code, code, recovery codes) or off. Full screen on phones. */
export function TwoFactorDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const titleId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Chosen once when the dialog opens: turning it on ends with the recovery codes, which stay until "Done".
  const [enabled] = useState(user?.mfaEnabled === true);
  const [settingUp, setSettingUp] = useState(false);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth fullScreen={phone} data-testid="mfa-dialog">
      <DialogTitle id={titleId}>{t('mfa.title')}</DialogTitle>
      <DialogContent>
        {enabled ? (
          <MfaDisable onDone={onClose} />
        ) : settingUp ? (
          <MfaSetup onDone={onClose} />
        ) : (
          <>
            <Typography variant="body2" sx={{ mb: 2 }} data-testid="mfa-status-off">
              {t('mfa.statusOff')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('mfa.explain')}
            </Typography>
            <Button variant="contained" onClick={() => setSettingUp(true)} data-testid="mfa-start">
              {t('mfa.setup.start')}
            </Button>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('mfa.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
