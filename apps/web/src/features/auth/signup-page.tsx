import { zodResolver } from '@hookform/resolvers/zod';
import { SignupInput } from '@wadesk/contracts';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { translateValidation } from '../../i18n/validation-message';
import { api } from '../../services/api';
import { toastError, toastSuccess } from '../../services/toast-error';
import { AuthLayout } from './auth-layout';
import { PasswordField } from './password-field';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(SignupInput), defaultValues: { name: '', email: '', password: '' } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await api.post('/auth/signup', values);
      toastSuccess(t('auth.signup.success'));
      void navigate('/login');
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <AuthLayout title={t('auth.signup.title')}>
      <Stack component="form" noValidate spacing={2} onSubmit={(e) => void onSubmit(e)}>
        <TextField
          label={t('auth.name')}
          autoComplete="name"
          autoFocus
          fullWidth
          {...register('name')}
          error={!!errors.name}
          helperText={translateValidation(t, errors.name?.message)}
        />
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          fullWidth
          {...register('email')}
          error={!!errors.email}
          helperText={translateValidation(t, errors.email?.message)}
        />
        <PasswordField
          label={t('auth.password')}
          autoComplete="new-password"
          fullWidth
          {...register('password')}
          error={!!errors.password}
          helperText={translateValidation(t, errors.password?.message)}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('auth.signup.submit')}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          <Link component={RouterLink} to="/login">
            {t('auth.signup.toLogin')}
          </Link>
        </Typography>
      </Stack>
    </AuthLayout>
  );
}
