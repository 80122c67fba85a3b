import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ComponentType, ReactNode } from 'react';
import { get, type FieldError, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../i18n/validation-message';

export type FormTextFieldProps<V extends FieldValues> = Omit<TextFieldProps, 'name' | 'error' | 'helperText'> & {
  form: UseFormReturn<V>;
  name: Path<V>;
  /** Shown while the field has no error. */
  helperText?: ReactNode;
  /** The text of an error: by default the common validation messages ('Too Short!'...), translated. */
  errorText?: (message: string | undefined) => string | undefined;
  /** Another field in TextField's place, such as PasswordField. */
  as?: ComponentType<TextFieldProps>;
};

/** A full-width text field bound to a form field, with its translated validation message. */
export function FormTextField<V extends FieldValues>({ form, name, helperText, errorText, as: Field = TextField, ...props }: FormTextFieldProps<V>) {
  const { t } = useTranslation();
  const error = get(form.formState.errors, name) as FieldError | undefined;
  const message = errorText ? errorText(error?.message) : translateValidation(t, error?.message);
  return <Field fullWidth {...props} {...form.register(name)} error={!!error} helperText={message ?? helperText} />;
}
