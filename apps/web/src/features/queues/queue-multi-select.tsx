import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useId } from 'react';
import { useController, type FieldPathByValue, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useQueueList } from './queues-api';

export interface QueueMultiSelectProps<V extends FieldValues> {
  form: UseFormReturn<V>;
  /** The form field holding the chosen queues' ids. */
  name: FieldPathByValue<V, number[]>;
  label: string;
  /** The menu's text when there is no queue yet. */
  emptyText: string;
  helperText?: string;
}

/** The queues of a user or a connection: a drop-down of every queue, the chosen ones shown as coloured chips. */
export function QueueMultiSelect<V extends FieldValues>({ form, name, label, emptyText, helperText }: QueueMultiSelectProps<V>) {
  const labelId = useId();
  const { data: queues = [] } = useQueueList();
  const { field } = useController({ control: form.control, name });
  return (
    <FormControl fullWidth>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select<number[]>
        multiple
        labelId={labelId}
        label={label}
        value={field.value as number[]}
        onChange={(e) => {
          const v = e.target.value;
          field.onChange(typeof v === 'string' ? v.split(',').map(Number) : v);
        }}
        onBlur={field.onBlur}
        renderValue={(selected) => (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {selected.map((id) => {
              const queue = queues.find((q) => q.id === id);
              return <Chip key={id} size="small" label={queue?.name ?? `#${id}`} sx={{ bgcolor: queue?.color, color: 'common.white' }} />;
            })}
          </Box>
        )}
      >
        {queues.length === 0 && (
          <MenuItem disabled value={-1}>
            {emptyText}
          </MenuItem>
        )}
        {queues.map((q) => (
          <MenuItem key={q.id} value={q.id}>
            <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: q.color, mr: 1, flexShrink: 0 }} />
            {q.name}
          </MenuItem>
        ))}
      </Select>
      {helperText && <FormHelperText>{helperText}</FormHelperText>}
    </FormControl>
  );
}
