import type { LabelRefDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import { memo } from 'react';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** Black or white, whichever reads better on the label's colour. */
export function labelTextColor(color: string): string {
  if (!HEX.test(color)) return '#fff';
  let hex = color.slice(1);
  if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b > 160 ? 'rgba(0,0,0,0.87)' : '#fff';
}

/** One label as a small coloured chip. */
export function LabelChip({ label, size = 'small', onDelete }: { label: LabelRefDto; size?: 'small' | 'medium'; onDelete?: ChipProps['onDelete'] }) {
  return (
    <Chip
      label={label.name}
      size={size}
      onDelete={onDelete}
      data-testid="label-chip"
      sx={{
        bgcolor: label.color,
        color: labelTextColor(label.color),
        maxWidth: 160,
        fontWeight: 500,
        '& .MuiChip-deleteIcon': { color: labelTextColor(label.color), opacity: 0.7 },
        ...(size === 'small' ? { height: 18, fontSize: 11, '& .MuiChip-label': { px: 0.75 } } : {}),
      }}
    />
  );
}

/**
 * A row of label chips that never wraps (ticket rows and the header stay one line): those that do not fit are cut,
 * and every name is in the row's title.
 */
export const LabelChips = memo(function LabelChips({ labels, testId = 'label-chips' }: { labels: readonly LabelRefDto[]; testId?: string }) {
  if (labels.length === 0) return null;
  return (
    <Box
      data-testid={testId}
      title={labels.map((l) => l.name).join(', ')}
      sx={{ display: 'flex', gap: 0.5, minWidth: 0, overflow: 'hidden', flexWrap: 'nowrap', alignItems: 'center' }}
    >
      {labels.map((label) => (
        <LabelChip key={label.id} label={label} />
      ))}
    </Box>
  );
});
