import type { CloudTemplateDto, MessageTemplate } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../services/api';

export interface TemplatePickerProps {
  whatsappId: number;
  /** The chosen template with all its values, or null while none is chosen or a value is missing. */
  onChange: (template: MessageTemplate | null) => void;
  /** The template to start with (editing a schedule). */
  initial?: MessageTemplate | null;
  /** Shown under the picker (e.g. "choose a template" after a submit without one). */
  error?: string;
  /** What the notice above the list says; by default that bulk sends and schedules need a template. */
  notice?: { severity: 'info' | 'warning'; text: string };
  autoFocus?: boolean;
}

/** The body with the values typed so far in place of its {{n}} placeholders. */
function preview(body: string, values: string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => values[Number(n) - 1]?.trim() || whole);
}

/**
 * An approved WhatsApp template and its {{n}} values with a preview (issue 18): in the chat's template dialog, and in
 * the bulk sends and scheduled messages of a Cloud API connection.
 */
export function TemplatePicker({ whatsappId, onChange, initial = null, error, notice, autoFocus }: TemplatePickerProps) {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useQuery({
    queryKey: ['whatsapp', whatsappId, 'templates'],
    queryFn: async () => (await api.get<CloudTemplateDto[]>(`/whatsapp/${whatsappId}/templates`)).data,
    meta: { silent: true },
  });
  const approved = useMemo(() => (data ?? []).filter((x) => x.status === 'APPROVED'), [data]);
  const [key, setKey] = useState(initial ? `${initial.name}|${initial.language}` : '');
  const [values, setValues] = useState<string[]>(initial?.variables ?? []);
  const template = approved.find((x) => `${x.name}|${x.language}` === key);

  useEffect(() => {
    const complete = !!template && values.length === template.variables && values.every((v) => v.trim());
    onChange(complete ? { name: template.name, language: template.language, variables: values.map((v) => v.trim()) } : null);
    // onChange is the parent's setter: only the choice and the values matter here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template, values]);

  const choose = (value: string) => {
    setKey(value);
    const next = approved.find((x) => `${x.name}|${x.language}` === value);
    setValues(Array.from({ length: next?.variables ?? 0 }, () => ''));
  };

  return (
    <Stack spacing={2} data-testid="template-picker">
      <Alert severity={notice?.severity ?? 'info'} variant="outlined">
        {notice?.text ?? t('chat.template.bulkHelp')}
      </Alert>
      {isLoading && <CircularProgress size={24} aria-label={t('common.loading')} />}
      {isError && <Alert severity="error">{t('chat.template.loadError')}</Alert>}
      {!isLoading && !isError && approved.length === 0 && <Typography color="text.secondary">{t('chat.template.empty')}</Typography>}
      {approved.length > 0 && (
        <TextField
          select
          fullWidth
          required
          autoFocus={autoFocus}
          label={t('chat.template.template')}
          value={template ? key : ''}
          onChange={(e) => choose(e.target.value)}
          error={!!error && !template}
          helperText={!template ? error : undefined}
          slotProps={{ htmlInput: { 'data-testid': 'template-select' } }}
        >
          {approved.map((x) => (
            <MenuItem key={`${x.name}|${x.language}`} value={`${x.name}|${x.language}`}>
              {x.name} ({x.language})
            </MenuItem>
          ))}
        </TextField>
      )}
      {template &&
        values.map((value, i) => (
          <TextField
            key={i}
            fullWidth
            required
            label={t('chat.template.variable', { n: i + 1 })}
            value={value}
            error={!!error && !value.trim()}
            onChange={(e) => setValues((current) => current.map((v, j) => (j === i ? e.target.value : v)))}
            slotProps={{ htmlInput: { 'data-testid': `template-variable-${i + 1}`, maxLength: 1000 } }}
          />
        ))}
      {template && (
        <Box sx={{ bgcolor: '#dcf8c6', borderRadius: 2, p: 1.5, whiteSpace: 'pre-wrap' }} data-testid="template-preview">
          <Typography variant="caption" color="text.secondary" component="div">
            {t('chat.template.preview')}
          </Typography>
          <Typography variant="body2">{preview(template.body, values) || template.name}</Typography>
        </Box>
      )}
    </Stack>
  );
}
