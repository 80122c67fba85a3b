import type { LabelRefDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const storageKey = (userId: number) => `tickets.selectedLabelIds.${userId}`;
const CLEAR = -1;

/** The label filter of the tickets screen: none by default (every ticket), remembered locally like the queue filter. */
export function useSelectedLabels(userId: number | undefined) {
  const [selected, setSelectedState] = useState<number[]>(() => {
    if (userId === undefined) return [];
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '[]') as unknown;
      return Array.isArray(saved) ? saved.filter((id): id is number => typeof id === 'number') : [];
    } catch {
      return []; // a broken saved value: no filter
    }
  });
  const setSelected = (ids: number[]) => {
    setSelectedState(ids);
    if (userId !== undefined) localStorage.setItem(storageKey(userId), JSON.stringify(ids));
  };
  return [selected, setSelected] as const;
}

/** Beside the queue filter: tickets carrying any of the chosen labels. Hidden while there is no label. */
export function LabelFilter({ labels, selected, onChange }: { labels: readonly LabelRefDto[]; selected: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  if (labels.length === 0) return null;
  // A label deleted since it was chosen no longer counts.
  const chosen = selected.filter((id) => labels.some((l) => l.id === id));
  return (
    <Select
      multiple
      size="small"
      displayEmpty
      value={chosen}
      onChange={(e) => {
        const ids = typeof e.target.value === 'string' ? [] : e.target.value;
        onChange(ids.includes(CLEAR) ? [] : ids);
      }}
      inputProps={{ 'aria-label': t('labels.filter') }}
      renderValue={() => (chosen.length ? t('labels.filterCount', { count: chosen.length }) : t('labels.filter'))}
      data-testid="label-filter"
      sx={{ minWidth: 110, fontSize: 14, ...(chosen.length ? { '& .MuiSelect-select': { fontWeight: 600, color: 'primary.main' } } : {}) }}
    >
      <MenuItem value={CLEAR} dense disabled={chosen.length === 0}>
        <ListItemText primary={t('labels.clearFilter')} />
      </MenuItem>
      <Divider />
      {labels.map((l) => (
        <MenuItem key={l.id} value={l.id} dense>
          <Checkbox size="small" checked={chosen.includes(l.id)} />
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: l.color, mr: 1, flexShrink: 0 }} />
          <ListItemText primary={l.name} />
        </MenuItem>
      ))}
    </Select>
  );
}
