import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useId, useState } from 'react';
import { get, type FieldError, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../../i18n/validation-message';

export interface SignInFieldProps<V extends FieldValues> {
  form: UseFormReturn<V>;
  name: Path<V>;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
}

/**
 * The login and sign-up pages' field: what MUI's outlined TextField renders (FormControl, InputLabel,
 * OutlinedInput, FormHelperText), same look and ids, without TextField itself, which brings Select, Menu,
 * Popover and Modal into the login page's first load (issue 11). A password gets the show/hide toggle of
 * PasswordField. Bound to the form like FormTextField, with the same translated validation message.
 */
export function SignInField<V extends FieldValues>({ form, name, label, type = 'text', autoComplete, autoFocus }: SignInFieldProps<V>) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  const error = get(form.formState.errors, name) as FieldError | undefined;
  const message = translateValidation(t, error?.message);
  const helperTextId = message ? `${id}-helper-text` : undefined;
  const { ref, ...field } = form.register(name);
  const password = type === 'password';
  return (
    <FormControl fullWidth error={!!error} variant="outlined">
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...field}
        inputRef={ref}
        id={id}
        label={label}
        fullWidth
        type={password && visible ? 'text' : type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        aria-describedby={helperTextId}
        endAdornment={
          password ? (
            <InputAdornment position="end">
              <IconButton aria-label={t('aria.showPassword')} aria-pressed={visible} onClick={() => setVisible((v) => !v)} edge="end">
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ) : undefined
        }
      />
      {message && <FormHelperText id={helperTextId}>{message}</FormHelperText>}
    </FormControl>
  );
}
