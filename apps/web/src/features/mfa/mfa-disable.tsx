import { zodResolver } from '@hookform/resolvers/zod';
import { MfaDisableInput } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { translateValidation } from '../../i18n/validation-message';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { PasswordField } from '../auth/password-field';
import { CodeField } from './code-field';
import { disableMfa } from './mfa-api';

const resolver = zodResolver(MfaDisableInput);

/** Two-factor sign-in is on: turning it off takes the password and a code (of the app, or a recovery code). */
export function MfaDisable({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { setMfaEnabled } = useAuth();
  const form = useForm({ resolver, defaultValues: { password: '', code: '' } });
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const turnOff = async () => {
    setBusy(true);
    try {
      await disableMfa(form.getValues());
      toastSuccess(t('mfa.disabled'));
      setMfaEnabled(false);
      onDone();
    } catch (err) {
      setConfirming(false);
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(e) => void form.handleSubmit(() => setConfirming(true))(e)}>
      <Alert severity="success" data-testid="mfa-status-on">
        {t('mfa.statusOn')}
      </Alert>
      <PasswordField
        {...form.register('password')}
        label={t('auth.password')}
        autoComplete="current-password"
        fullWidth
        error={!!form.formState.errors.password}
        helperText={translateValidation(t, form.formState.errors.password?.message)}
      />
      <CodeField form={form} name="code" either />
      <Button type="submit" color="error" variant="outlined" data-testid="mfa-disable">
        {t('mfa.disable.submit')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('mfa.disable.confirmTitle')}
        text={t('mfa.disable.confirmText')}
        confirmLabel={t('mfa.disable.submit')}
        busy={busy}
        onConfirm={() => void turnOff()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
