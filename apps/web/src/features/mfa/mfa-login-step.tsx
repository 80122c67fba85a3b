import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { AuthForm } from '../auth/auth-form';
import { lazyResolver } from '../auth/lazy-resolver';
import { SignInField } from '../auth/sign-in-field';

/**
 * The sign-in's second step (two-factor sign-in on): the code of the authenticator app, or a recovery code. The
 * password step's token lives 5 minutes; "Back" starts again with e-mail and password.
 */
export function MfaLoginStep({ mfaToken, onBack }: { mfaToken: string; onBack: () => void }) {
  const { t } = useTranslation();
  const { completeMfa } = useAuth();
  const [recovery, setRecovery] = useState(false);
  const form = useForm({ resolver: lazyResolver((r) => r.mfaCodeResolver), defaultValues: { code: '' } });
  const { setFocus, reset } = form;
  useEffect(() => {
    reset({ code: '' });
    setFocus('code');
  }, [recovery, reset, setFocus]);

  return (
    <AuthForm
      title={t('mfa.login.title')}
      form={form}
      onSubmit={async ({ code }) => {
        try {
          await completeMfa(mfaToken, code);
        } catch (err) {
          // The 5 minutes of the password step are over: start again with e-mail and password.
          if (errorMessage(err).code === 'ERR_MFA_TOKEN_INVALID') onBack();
          else form.setFocus('code');
          throw err;
        }
      }}
      submitLabel={t('mfa.login.submit')}
    >
      <Typography variant="body2" color="text.secondary">
        {recovery ? t('mfa.login.recoveryText') : t('mfa.login.text')}
      </Typography>
      <SignInField
        key={recovery ? 'recovery' : 'app'}
        form={form}
        name="code"
        label={recovery ? t('mfa.recoveryCode') : t('mfa.code')}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        autoFocus
      />
      <Typography variant="body2" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Link component="button" type="button" onClick={() => setRecovery((r) => !r)} data-testid="mfa-toggle-recovery">
          {recovery ? t('mfa.login.useApp') : t('mfa.login.useRecovery')}
        </Link>
        <Link component="button" type="button" onClick={onBack}>
          {t('mfa.login.back')}
        </Link>
      </Typography>
    </AuthForm>
  );
}
