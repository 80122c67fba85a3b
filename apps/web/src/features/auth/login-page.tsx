import { zodResolver } from '@hookform/resolvers/zod';
import { LoginInput } from '@wadesk/contracts';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { translateValidation } from '../../i18n/validation-message';
import { toastError } from '../../services/toast-error';
import { useAuth } from './auth-context';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';

export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(LoginInput), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await login(values);
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <AuthLayout title={t('auth.login.title')}>
      <Stack component="form" noValidate spacing={2} onSubmit={(e) => void onSubmit(e)}>
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          autoFocus
          fullWidth
          {...register('email')}
          error={!!errors.email}
          helperText={translateValidation(t, errors.email?.message)}
        />
        <PasswordField
          label={t('auth.password')}
          autoComplete="current-password"
          fullWidth
          {...register('password')}
          error={!!errors.password}
          helperText={translateValidation(t, errors.password?.message)}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('auth.login.submit')}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          <Link component={RouterLink} to="/signup">
            {t('auth.login.toSignup')}
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
