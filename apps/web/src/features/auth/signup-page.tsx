import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../../services/api';
import { toastSuccess } from '../../services/toast-error';
import { AuthForm } from './auth-form';
import { lazyResolver, preloadAuthResolvers } from './lazy-resolver';
import { SignInField } from './sign-in-field';
import { submitDelay } from '../../services/submit-delay';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({ resolver: lazyResolver((r) => r.signupResolver), defaultValues: { name: '', email: '', password: '' } });
  useEffect(() => void preloadAuthResolvers(), []);

  return (
    <AuthForm
      title={t('auth.signup.title')}
      form={form}
      onSubmit={async (values) => {
        await submitDelay();
        await api.post('/auth/signup', values);
        toastSuccess(t('auth.signup.success'));
        void navigate('/login');
      }}
      submitLabel={t('auth.signup.submit')}
      link={{ to: '/login', label: t('auth.signup.toLogin') }}
    >
      <SignInField form={form} name="name" label={t('auth.name')} autoComplete="name" autoFocus />
      <SignInField form={form} name="email" label={t('auth.email')} type="email" autoComplete="email" />
      <SignInField form={form} name="password" type="password" label={t('auth.password')} autoComplete="new-password" />
    </AuthForm>
  );
}
