import TextField from '@mui/material/TextField';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { get, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../../i18n/validation-message';

/** The code of the authenticator app (six digits, the phone's keypad, the browser may fill it), or also a recovery code. */
export function CodeField<V extends FieldValues>({
  form,
  name,
  either = false,
  autoFocus = false,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  /** A code of the app or a recovery code (turning it off): no digits-only keypad. */
  either?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const error = get(form.formState.errors, name) as FieldError | undefined;
  return (
    <TextField
      {...form.register(name)}
      label={t('mfa.code')}
      helperText={translateValidation(t, error?.message) || (either ? t('mfa.codeOrRecoveryHelp') : t('mfa.codeHelp'))}
      error={!!error}
      fullWidth
      autoFocus={autoFocus}
      autoComplete={either ? 'off' : 'one-time-code'}
      slotProps={{ htmlInput: either ? { spellCheck: false, 'data-testid': 'mfa-code' } : { inputMode: 'numeric', 'data-testid': 'mfa-code' } }}
    />
  );
}
