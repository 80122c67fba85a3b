import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import AddIcon from '@mui/icons-material/Add';
import type { ReactNode } from 'react';
import { Page } from './page';
import { SearchField } from './search-field';

/** Header buttons share the row on phones. */
export const HEADER_BUTTON_SX = { flex: { xs: '1 1 auto', sm: '0 0 auto' }, whiteSpace: 'nowrap' } as const;

export interface ListPageProps {
  title: string;
  /** The search box, first in the header (a whole line on phones). */
  search?: { value: string; onChange: (value: string) => void };
  /** Other header content, between the search and the primary action: buttons (with HEADER_BUTTON_SX) or a note. */
  actions?: ReactNode;
  /** The primary action, last in the header: "Add ...". */
  add?: { label: string; onClick: () => void };
  children: ReactNode;
}

/** A list page: title, then search, other actions and "Add ..." in a header that wraps on phones; the list below. */
export function ListPage({ title, search, actions, add, children }: ListPageProps) {
  return (
    <Page
      title={title}
      actions={
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'flex-end', width: '100%' }}>
          {search && (
            <SearchField
              value={search.value}
              onChange={search.onChange}
              sx={{ flex: { xs: '1 1 100%', sm: '1 1 220px' }, minWidth: 0 }}
            />
          )}
          {actions}
          {add && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={add.onClick} sx={HEADER_BUTTON_SX}>
              {add.label}
            </Button>
          )}
        </Stack>
      }
    >
      {children}
    </Page>
  );
}
