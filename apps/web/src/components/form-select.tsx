import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useId, type ReactNode } from 'react';
import { useController, type FieldValues, type Path, type PathValue, type UseFormReturn } from 'react-hook-form';

export interface FormSelectOption<Value> {
  /** null: the empty choice (the field then shows only its label). */
  value: Value;
  label: ReactNode;
}

export interface FormSelectProps<V extends FieldValues, N extends Path<V>> {
  form: UseFormReturn<V>;
  name: N;
  label: string;
  options: readonly FormSelectOption<PathValue<V, N>>[];
  disabled?: boolean;
  helperText?: ReactNode;
}

/** A full-width drop-down bound to a form field; the options' values may be of any type (ids, null...). */
export function FormSelect<V extends FieldValues, N extends Path<V>>({ form, name, label, options, disabled, helperText }: FormSelectProps<V, N>) {
  const labelId = useId();
  const { field } = useController({ control: form.control, name });
  // The menu's values are the options' places; the empty choice's is '' (nothing shown).
  const keyOf = (i: number) => (i < 0 || options[i].value === null ? '' : String(i));
  return (
    <FormControl fullWidth disabled={disabled}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select
        labelId={labelId}
        label={label}
        value={keyOf(options.findIndex((o) => o.value === field.value))}
        onChange={(e) => field.onChange(options[e.target.value === '' ? options.findIndex((o) => o.value === null) : Number(e.target.value)]?.value)}
        onBlur={field.onBlur}
      >
        {options.map((o, i) => (
          <MenuItem key={keyOf(i)} value={keyOf(i)}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
      {helperText && <FormHelperText>{helperText}</FormHelperText>}
    </FormControl>
  );
}
