import type { QueueDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const storageKey = (userId: number) => `tickets.selectedQueueIds.${userId}`;

/** The selected queues: all the user's queues by default, remembered locally. */
export function useSelectedQueues(userId: number | undefined, queues: QueueDto[]) {
  const [selected, setSelectedState] = useState<number[]>(() => {
    const all = queues.map((q) => q.id);
    if (userId === undefined) return all;
    try {
      const raw = localStorage.getItem(storageKey(userId));
      if (raw) {
        const saved = JSON.parse(raw) as unknown;
        if (Array.isArray(saved)) return saved.filter((id): id is number => typeof id === 'number' && all.includes(id));
      }
    } catch {
      /* ignore a broken saved value */
    }
    return all;
  });
  const setSelected = (ids: number[]) => {
    setSelectedState(ids);
    if (userId !== undefined) localStorage.setItem(storageKey(userId), JSON.stringify(ids));
  };
  return [selected, setSelected] as const;
}

export function QueueSelect({ queues, selected, onChange }: { queues: QueueDto[]; selected: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  if (queues.length === 0) return null;
  return (
    <Select
      multiple
      size="small"
      displayEmpty
      value={selected}
      onChange={(e) => onChange(typeof e.target.value === 'string' ? [] : e.target.value)}
      inputProps={{ 'aria-label': t('tickets.manager.queues') }}
      renderValue={() => t('tickets.manager.queues')}
      sx={{ minWidth: 110, fontSize: 14 }}
    >
      {queues.map((q) => (
        <MenuItem key={q.id} value={q.id} dense>
          <Checkbox size="small" checked={selected.includes(q.id)} />
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: q.color, mr: 1 }} />
          <ListItemText primary={q.name} />
        </MenuItem>
      ))}
    </Select>
  );
}
