import type { LabelRefDto } from '@wadesk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { LabelChip } from './label-chips';
import { useLabelList } from './labels-api';

export interface LabelSelectProps {
  /** The chosen label ids. */
  value: number[];
  onChange: (ids: number[]) => void;
  /** The labels already carried, shown while the list loads (and kept if one was deleted meanwhile). */
  current?: readonly LabelRefDto[];
  size?: 'small' | 'medium';
  autoFocus?: boolean;
  disabled?: boolean;
  /** Opens the options at once (the header's edit control). */
  openOnMount?: boolean;
  onClose?: () => void;
  testId?: string;
}

/** Choose labels: a multi-select with search over every label (issue 36 §2), each shown as its coloured chip. */
export function LabelSelect({ value, onChange, current = [], size = 'small', autoFocus, disabled, openOnMount, onClose, testId = 'label-select' }: LabelSelectProps) {
  const { t } = useTranslation();
  const { data: labels, isLoading } = useLabelList();
  const options: LabelRefDto[] = labels ?? [...current];
  const byId = new Map<number, LabelRefDto>([...current, ...options].map((l) => [l.id, l]));
  const selected = value.map((id) => byId.get(id)).filter((l): l is LabelRefDto => l !== undefined);
  return (
    <Autocomplete
      multiple
      size={size}
      disabled={disabled}
      options={options}
      value={selected}
      loading={isLoading}
      openOnFocus
      disableCloseOnSelect
      autoHighlight
      onClose={onClose}
      data-testid={testId}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, chosen) => onChange(chosen.map((l) => l.id))}
      noOptionsText={t('labels.select.none')}
      loadingText={t('common.loading')}
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={key} {...rest} sx={{ gap: 1 }}>
            <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: option.color, flexShrink: 0 }} />
            {option.name}
          </Box>
        );
      }}
      renderValue={(chosen, getItemProps) =>
        chosen.map((label, index) => {
          const { key, onDelete } = getItemProps({ index });
          return <LabelChip key={key} label={label} size="medium" onDelete={disabled ? undefined : onDelete} />;
        })
      }
      renderInput={(params) => (
        <TextField {...params} label={t('labels.select.label')} placeholder={selected.length ? '' : t('labels.select.placeholder')} autoFocus={autoFocus || openOnMount} />
      )}
    />
  );
}
