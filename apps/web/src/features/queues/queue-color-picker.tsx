import { QUEUE_COLOR_PRESETS } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';

const HEX6 = /^#[0-9a-f]{6}$/i;

/** Dark enough for a white check mark on it. */
function isDark(color: string): boolean {
  if (!HEX6.test(color)) return true;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 160;
}

export interface QueueColorPickerProps {
  value: string;
  onChange: (color: string) => void;
  onBlur?: () => void;
  error?: string;
}

/** The queue colour: the 50 presets (§9) as swatches, plus any custom colour (picker or typed). */
export function QueueColorPicker({ value, onChange, onBlur, error }: QueueColorPickerProps) {
  const { t } = useTranslation();
  const current = value.toLowerCase();
  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle2" color="text.secondary" id="queue-color-presets-label">
        {t('queues.fields.color')}
      </Typography>
      <Box
        role="radiogroup"
        aria-labelledby="queue-color-presets-label"
        data-testid="queue-color-presets"
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(10, minmax(0, 32px))', gap: 0.75 }}
      >
        {QUEUE_COLOR_PRESETS.map((color) => {
          const selected = color.toLowerCase() === current;
          return (
            <Tooltip key={color} title={color} disableInteractive>
              <ButtonBase
                role="radio"
                aria-checked={selected}
                aria-label={color}
                onClick={() => onChange(color)}
                sx={{
                  aspectRatio: '1',
                  minWidth: 0,
                  borderRadius: 1,
                  bgcolor: color,
                  color: isDark(color) ? 'common.white' : 'common.black',
                  outline: selected ? '2px solid' : '1px solid',
                  outlineColor: selected ? 'primary.main' : 'divider',
                  outlineOffset: selected ? 2 : 0,
                }}
              >
                {selected && <CheckIcon fontSize="small" />}
              </ButtonBase>
            </Tooltip>
          );
        })}
      </Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Box
          component="input"
          type="color"
          aria-label={t('queues.fields.pickColor')}
          value={HEX6.test(value) ? value : '#7c7c7c'}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
          sx={{
            width: 48,
            height: 40,
            p: 0.25,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'background.paper',
            cursor: 'pointer',
            flexShrink: 0,
          }}
        />
        <TextField
          size="small"
          label={t('queues.fields.customColor')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          error={!!error}
          helperText={error}
          slotProps={{ htmlInput: { maxLength: 9, 'data-testid': 'queue-color-input' } }}
          sx={{ flexGrow: 1 }}
        />
      </Stack>
    </Stack>
  );
}
