import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { loadToastify, toastError } from '../../services/toast-error';
import { AuthLayout } from './auth-layout';

export interface AuthFormProps<V extends FieldValues> {
  title: string;
  form: UseFormReturn<V>;
  /** Sends the valid values; a failure is toasted. */
  onSubmit: (values: V) => Promise<void>;
  submitLabel: string;
  /** The link under the button, to the other page (login ↔ sign-up); or a note in its place. */
  link?: { to: string; label: string };
  note?: string;
  children: ReactNode;
}

/** The login and sign-up pages' form: its fields, a large submit button and a link to the other page. */
export function AuthForm<V extends FieldValues>({ title, form, onSubmit, submitLabel, link, note, children }: AuthFormProps<V>) {
  const submit = form.handleSubmit(async (values) => {
    // A toast follows (success or failure): its code loads alongside the request, not after it, when the
    // browser was not idle before (see app.tsx's Toasts).
    void loadToastify().catch(() => undefined);
    try {
      await onSubmit(values);
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <AuthLayout title={title}>
      <Stack component="form" noValidate spacing={2} onSubmit={(e) => void submit(e)}>
        {children}
        <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
        {link && (
          <Typography variant="body2" sx={{ textAlign: 'center' }}>
            <Link component={RouterLink} to={link.to}>
              {link.label}
            </Link>
          </Typography>
        )}
        {note && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }} data-testid="auth-note">
            {note}
          </Typography>
        )}
      </Stack>
    </AuthLayout>
  );
}
