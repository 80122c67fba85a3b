import { zodResolver } from '@hookform/resolvers/zod';
import { MfaEnableInput, type MfaSetupResponse } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { CodeField } from './code-field';
import { enableMfa, secretOfUri, setupMfa } from './mfa-api';
import { RecoveryCodes } from './recovery-codes';

const resolver = zodResolver(MfaEnableInput);

/**
 * Turning two-factor sign-in on: a QR code (and the secret, to type by hand) for the authenticator app, a code of
 * the app to confirm, then the recovery codes, shown once, until "Done".
 */
export function MfaSetup({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { setMfaEnabled } = useAuth();
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const form = useForm({ resolver, defaultValues: { code: '' } });

  useEffect(() => {
    let current = true;
    setupMfa().then(
      (answer) => current && setSetup(answer),
      (err: unknown) => {
        if (!current) return;
        setFailed(true);
        toastError(err);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const confirm = form.handleSubmit(async ({ code }) => {
    try {
      const answer = await enableMfa(code);
      setRecoveryCodes(answer.recoveryCodes);
      toastSuccess(t('mfa.enabled'));
    } catch (err) {
      toastError(err);
      form.setFocus('code');
    }
  });

  if (recoveryCodes) {
    return (
      <Stack spacing={2}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {t('mfa.recovery.title')}
        </Typography>
        <RecoveryCodes codes={recoveryCodes} />
        <Button
          variant="contained"
          onClick={() => {
            setMfaEnabled(true);
            onDone();
          }}
          data-testid="mfa-done"
        >
          {t('mfa.recovery.done')}
        </Button>
      </Stack>
    );
  }
  if (failed) return <Typography color="error">{t('mfa.setupFailed')}</Typography>;
  if (!setup) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }} role="status" aria-label={t('common.loading')}>
        <CircularProgress />
      </Box>
    );
  }
  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(e) => void confirm(e)}>
      <Typography variant="body2">{t('mfa.setup.scan')}</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <Box component="img" src={setup.qrCode} alt={t('mfa.setup.qrAlt')} data-testid="mfa-qr" sx={{ width: 200, height: 200, imageRendering: 'pixelated' }} />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t('mfa.setup.manual')}
      </Typography>
      <Typography
        data-testid="mfa-secret"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all', textAlign: 'center', bgcolor: 'action.hover', borderRadius: 1, p: 1, userSelect: 'all' }}
      >
        {secretOfUri(setup.uri)}
      </Typography>
      <Typography variant="body2">{t('mfa.setup.confirm')}</Typography>
      <CodeField form={form} name="code" />
      <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} data-testid="mfa-enable">
        {t('mfa.setup.enable')}
      </Button>
    </Stack>
  );
}
