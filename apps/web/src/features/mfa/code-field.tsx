import TextField from '@mui/material/TextField';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { get, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../../i18n/validation-message';

/** The code of the authenticator app (six digits, the phone's keypad, the browser may fill it), or a recovery code. */
export function CodeField<V extends FieldValues>({
  form,
  name,
  recovery = false,
  autoFocus = false,
}: {
  form: UseFormReturn<V>;
  name: Path<V>;
  recovery?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const error = get(form.formState.errors, name) as FieldError | undefined;
  return (
    <TextField
      {...form.register(name)}
      label={recovery ? t('mfa.recoveryCode') : t('mfa.code')}
      helperText={translateValidation(t, error?.message) || (recovery ? t('mfa.recoveryCodeHelp') : t('mfa.codeHelp'))}
      error={!!error}
      fullWidth
      autoFocus={autoFocus}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      slotProps={{ htmlInput: recovery ? { spellCheck: false, 'data-testid': 'mfa-code' } : { inputMode: 'numeric', maxLength: 7, 'data-testid': 'mfa-code' } }}
    />
  );
}
