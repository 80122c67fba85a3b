import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context';
import { AuthLayout } from '../auth/auth-layout';
import { MfaSetup } from './mfa-setup';

/**
 * An admin signed in while the setting mfaRequiredForAdmins is on, without two-factor sign-in: this page comes before
 * anything else (the server refuses the rest with ERR_MFA_SETUP_REQUIRED) until it is on.
 */
export function MfaRequiredPage() {
  const { t } = useTranslation();
  const { logout } = useAuth();
  return (
    <AuthLayout title={t('mfa.required.title')}>
      <Stack spacing={2} data-testid="mfa-required">
        <Typography variant="body2" color="text.secondary">
          {t('mfa.required.text')}
        </Typography>
        {/* Done: the auth state no longer requires it, and the app shows what was asked for. */}
        <MfaSetup onDone={() => undefined} />
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          <Link component="button" type="button" onClick={() => void logout()}>
            {t('layout.logout')}
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
