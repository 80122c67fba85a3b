import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';

export interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  sx?: SxProps<Theme>;
}

/** The small "Search" box of a list page's header. */
export function SearchField({ value, onChange, sx }: SearchFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      label={t('common.search')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
      sx={sx}
    />
  );
}
