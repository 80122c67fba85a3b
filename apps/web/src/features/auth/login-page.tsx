import { zodResolver } from '@hookform/resolvers/zod';
import { LoginInput } from '@wadesk/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import { useAuth } from './auth-context';
import { AuthForm } from './auth-form';
import { PasswordField } from './password-field';

export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const form = useForm({ resolver: zodResolver(LoginInput), defaultValues: { email: '', password: '' } });

  return (
    <AuthForm
      title={t('auth.login.title')}
      form={form}
      onSubmit={login}
      submitLabel={t('auth.login.submit')}
      link={{ to: '/signup', label: t('auth.login.toSignup') }}
    >
      <FormTextField form={form} name="email" label={t('auth.email')} type="email" autoComplete="email" autoFocus />
      <FormTextField form={form} name="password" as={PasswordField} label={t('auth.password')} autoComplete="current-password" />
    </AuthForm>
  );
}
