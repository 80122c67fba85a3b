import { ATTENDANT_TOOLS, parseAttendantTools, SETTING_DEFINITIONS, type AttendantTool, type SettingKey } from '@wadesk/contracts';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import SaveIcon from '@mui/icons-material/Save';
import { useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../auth/password-field';

interface FieldProps {
  settingKey: SettingKey;
  value: string;
  /** Saves; resolves to what is wrong with the value (shown under the field), or null once saved. */
  onSave: (value: string) => Promise<string | null>;
}

/** The label of an option value: on/off, or a duration for timeCreateNewTicket. */
function useOptionLabel() {
  const { t } = useTranslation();
  return (key: SettingKey, option: string) =>
    key === 'timeCreateNewTicket' ? t(`settings.durations.${option}`) : t(`settings.options.${option}`);
}

export function OptionSettingField({ settingKey, value, onSave }: FieldProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const optionLabel = useOptionLabel();
  const def = SETTING_DEFINITIONS[settingKey];
  const options: readonly string[] = 'options' in def ? def.options : [];
  const labelId = `setting-${settingKey}-label`;
  const help = t(`settings.help.${settingKey}`, { defaultValue: '' });
  return (
    <FormControl fullWidth size="small" error={Boolean(error)}>
      <InputLabel id={labelId}>{t(`settings.keys.${settingKey}`)}</InputLabel>
      <Select
        labelId={labelId}
        label={t(`settings.keys.${settingKey}`)}
        value={options.includes(value) ? value : ''}
        onChange={(e) => void onSave(e.target.value).then(setError)}
        data-testid={`setting-${settingKey}`}
      >
        {options.map((option) => (
          <MenuItem key={option} value={option}>
            {optionLabel(settingKey, option)}
          </MenuItem>
        ))}
      </Select>
      {(error || help) && <FormHelperText>{error ?? help}</FormHelperText>}
    </FormControl>
  );
}

/** attendantTools (issue 32): one checkbox a tool; each change is saved at once, in the tools' own order. */
export function ToolsSettingField({ settingKey, value, onSave }: FieldProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const open = parseAttendantTools(value);
  const toggle = (tool: AttendantTool, on: boolean) => {
    const next = ATTENDANT_TOOLS.filter((item) => (item === tool ? on : open.has(item)));
    void onSave(next.join(',')).then(setError);
  };
  return (
    <FormControl component="fieldset" variant="standard" error={Boolean(error)} sx={{ gridColumn: '1 / -1' }} data-testid={`setting-${settingKey}`}>
      <FormLabel component="legend">{t(`settings.keys.${settingKey}`)}</FormLabel>
      <FormGroup row>
        {ATTENDANT_TOOLS.map((tool) => (
          <FormControlLabel
            key={tool}
            control={<Checkbox size="small" checked={open.has(tool)} onChange={(e) => toggle(tool, e.target.checked)} />}
            label={t(`settings.tools.${tool}`)}
            data-testid={`attendant-tool-${tool}`}
          />
        ))}
      </FormGroup>
      <FormHelperText>{error ?? t(`settings.help.${settingKey}`)}</FormHelperText>
    </FormControl>
  );
}

/** The messages sent to contacts: several lines (Enter starts a new line; saved on blur, Ctrl+Enter or the button). */
const MULTILINE_KEYS: readonly SettingKey[] = ['callRejectMessage', 'transferMessage', 'protocolMessage', 'csatMessage'];

/** Free text (or a secret): saved on blur, on Enter, or with the save button. */
export function TextSettingField({ settingKey, value, onSave, secret }: FieldProps & { secret?: boolean }) {
  const multiline = MULTILINE_KEYS.includes(settingKey);
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new value from the server (save, live update) replaces the draft.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const dirty = draft !== value;

  const save = async () => {
    if (!dirty || saving) return;
    setSaving(true);
    try {
      setError(await onSave(draft));
    } finally {
      setSaving(false);
    }
  };

  const saveButton = (
    <IconButton
      size="small"
      edge="end"
      aria-label={t('settings.saveKey', { name: t(`settings.keys.${settingKey}`) })}
      disabled={!dirty || saving}
      onClick={() => void save()}
      onMouseDown={(e) => e.preventDefault()}
    >
      <SaveIcon fontSize="small" />
    </IconButton>
  );

  const common = {
    label: t(`settings.keys.${settingKey}`),
    value: draft,
    size: 'small' as const,
    fullWidth: true,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setDraft(e.target.value);
      setError(null);
    },
    onBlur: () => void save(),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (!multiline || e.ctrlKey || e.metaKey)) {
        if (multiline) e.preventDefault();
        void save();
      }
    },
    // What is wrong with the value, while it stays as typed; else the field's help.
    error: Boolean(error),
    helperText: error ?? (t(`settings.help.${settingKey}`, { defaultValue: '' }) || undefined),
  };

  if (secret) return <SecretSettingField settingKey={settingKey} value={value} onSave={onSave} />;
  return (
    <TextField
      {...common}
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      maxRows={multiline ? 6 : undefined}
      slotProps={{ input: { endAdornment: <InputAdornment position="end">{saveButton}</InputAdornment> } }}
    />
  );
}

/**
 * A secret: the server sends back only a mask (never the value), so the field starts empty and says whether one
 * is saved; typing a new value and saving (blur, Enter) replaces it.
 */
function SecretSettingField({ settingKey, value, onSave }: FieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (!draft || saving) return;
    setSaving(true);
    try {
      const problem = await onSave(draft);
      setError(problem);
      // Emptied only once saved: a refused value stays, with what is wrong under it.
      if (!problem) setDraft('');
    } finally {
      setSaving(false);
    }
  };
  return (
    <PasswordField
      label={t(`settings.keys.${settingKey}`)}
      value={draft}
      size="small"
      fullWidth
      autoComplete="new-password"
      placeholder={value || t('settings.secret.notSet')}
      slotProps={{ inputLabel: { shrink: true } }}
      onChange={(e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        setDraft(e.target.value);
        setError(null);
      }}
      onBlur={() => void save()}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Enter') void save();
      }}
      error={Boolean(error)}
      helperText={error ?? (value ? t('settings.secret.set') : t('settings.secret.notSet'))}
    />
  );
}
