import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAuth } from './auth-context';
import { AuthForm } from './auth-form';
import { lazyResolver, preloadAuthResolvers } from './lazy-resolver';
import { SignInField } from './sign-in-field';

export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const form = useForm({ resolver: lazyResolver((r) => r.loginResolver), defaultValues: { email: '', password: '' } });
  useEffect(() => void preloadAuthResolvers(), []);

  return (
    <AuthForm
      title={t('auth.login.title')}
      form={form}
      onSubmit={login}
      submitLabel={t('auth.login.submit')}
      link={{ to: '/signup', label: t('auth.login.toSignup') }}
    >
      <SignInField form={form} name="email" label={t('auth.email')} type="email" autoComplete="email" autoFocus />
      <SignInField form={form} name="password" type="password" label={t('auth.password')} autoComplete="current-password" />
    </AuthForm>
  );
}
