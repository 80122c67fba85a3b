import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import type { FieldPathByValue, FieldValues, PathValue, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** The placeholders a greeting or farewell may use (§3), as the server renders them (inbound/greeting-template.ts). */
export const MESSAGE_PLACEHOLDERS = ['name', 'user', 'greeting', 'date', 'hour', 'ticket_id', 'queue', 'connection'] as const;

type MessageInput = HTMLTextAreaElement | HTMLInputElement;

/**
 * Placeholder insertion into a form's message fields: `messageFieldProps(name)` goes on each of `fields`, and
 * `insert(key)` puts `{{key}}` into the one used last (the first one at first), at its cursor.
 */
export function useMessagePlaceholders<V extends FieldValues, N extends FieldPathByValue<V, string>>(
  form: UseFormReturn<V>,
  fields: readonly [N, ...N[]],
) {
  const lastField = useRef<N>(fields[0]);
  const inputs = useRef<Partial<Record<string, MessageInput | null>>>({});

  const insert = (key: string) => {
    const field = lastField.current;
    const text = `{{${key}}}`;
    const value: string = form.getValues(field) ?? '';
    const input = inputs.current[field];
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    const next = (value.slice(0, start) + text + value.slice(end)) as PathValue<V, N>;
    form.setValue(field, next, { shouldDirty: true, shouldValidate: !!form.getFieldState(field).error });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  const messageFieldProps = (field: N) => ({
    inputRef: (el: MessageInput | null) => {
      inputs.current[field] = el;
    },
    onFocus: () => {
      lastField.current = field;
    },
  });

  return { insert, messageFieldProps };
}

/** The placeholder chips under the message fields: a click inserts one. */
export function MessagePlaceholderChips({ onInsert }: { onInsert: (key: string) => void }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="message-placeholders">
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.75 }}>
        {t('connections.placeholders.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
        {MESSAGE_PLACEHOLDERS.map((key) => (
          // The chip's name is the placeholder itself; the tooltip describes it.
          <Tooltip key={key} title={t(`connections.placeholders.${key}`)} describeChild>
            <Chip
              size="small"
              variant="outlined"
              label={`{{${key}}}`}
              // Keep the message field focused (and its cursor) while clicking.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onInsert(key)}
              sx={{ fontFamily: 'monospace' }}
            />
          </Tooltip>
        ))}
      </Box>
    </Box>
  );
}
