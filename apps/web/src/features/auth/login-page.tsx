import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../services/api';
import { useAuth } from './auth-context';
import { MfaLoginStep } from '../mfa/mfa-login-step';
import { AuthForm } from './auth-form';
import { lazyResolver, preloadAuthResolvers } from './lazy-resolver';
import { SignInField } from './sign-in-field';

export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  // Two-factor sign-in on: the password step's token, and the code step in place of the form.
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const form = useForm({ resolver: lazyResolver((r) => r.loginResolver), defaultValues: { email: '', password: '' } });
  useEffect(() => void preloadAuthResolvers(), []);
  // Sign-up is offered only while the admin leaves it open (userCreation); unknown until the server says.
  const [signupOpen, setSignupOpen] = useState<boolean | null>(null);
  useEffect(() => {
    let current = true;
    api.get<{ open: boolean }>('/auth/signup').then(
      ({ data }) => current && setSignupOpen(data.open),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  if (mfaToken) {
    return (
      <MfaLoginStep
        mfaToken={mfaToken}
        onBack={() => {
          setMfaToken(null);
          form.resetField('password');
        }}
      />
    );
  }

  return (
    <AuthForm
      title={t('auth.login.title')}
      form={form}
      onSubmit={async (values) => {
        const outcome = await login(values);
        if (outcome) setMfaToken(outcome.mfaToken);
      }}
      submitLabel={t('auth.login.submit')}
      link={signupOpen ? { to: '/signup', label: t('auth.login.toSignup') } : undefined}
      note={signupOpen === false ? t('auth.login.signupClosed') : undefined}
    >
      <SignInField form={form} name="email" label={t('auth.email')} type="email" autoComplete="email" autoFocus />
      <SignInField form={form} name="password" type="password" label={t('auth.password')} autoComplete="current-password" />
    </AuthForm>
  );
}
