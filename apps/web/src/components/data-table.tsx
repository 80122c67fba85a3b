import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { Breakpoint, SxProps, Theme } from '@mui/material/styles';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { useInfiniteScroll, type InfiniteScrollSource } from '../hooks/use-infinite-scroll';
import { toastSuccess } from '../services/toast-error';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';

/** A width, or one per breakpoint. */
type Width = number | string | Partial<Record<Breakpoint, number | string>>;

export interface DataColumn<T> {
  /** The header's text; with `headerHidden`, only the header's accessible name (an avatar column). */
  header: string;
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'center' | 'right';
  /** The header cell's width: the column's in a fixed layout. */
  width?: Width;
  /** The column shows from this breakpoint on: 'sm' hides it on phones. */
  showFrom?: Breakpoint;
  padding?: 'checkbox';
  /** The body cells' own style (wrapping, weight...). */
  sx?: SxProps<Theme>;
}

export interface RowAction<T> {
  /** The button's accessible name for the row: "edit Ana". */
  label: (row: T) => string;
  onClick: (row: T) => void;
}

/** Delete, after an "are you sure?" dialog; a failure is toasted and keeps the dialog open. */
export interface RowDelete<T> {
  /** The button's accessible name for the row: "delete Ana". */
  label: (row: T) => string;
  /** The dialog's question, naming the row: "Delete contact Ana?", and its text. */
  confirmTitle: (row: T) => string;
  confirmText: string | ((row: T) => string);
  remove: (row: T) => Promise<unknown>;
  /** The toast once deleted. */
  deletedText: string;
  /** Rows that cannot be deleted (the signed-in admin's own user): no button at all. */
  hidden?: (row: T) => boolean;
}

export interface RowActions<T> {
  /** Buttons of the row's own, before edit (start a ticket...). */
  extra?: (row: T) => ReactNode;
  edit?: RowAction<T>;
  delete?: RowDelete<T>;
  /** The column's width, in a fixed layout. */
  width?: Width;
}

export interface DataTableProps<T extends { id: number }> {
  rows: readonly T[];
  /** `false` leaves a column out (not for this user, or not at this width). */
  columns: readonly (DataColumn<T> | false)[];
  /** The table's accessible name. */
  label: string;
  testId: string;
  /** Each row's test id; rows also carry `data-id`. */
  rowTestId: string;
  /** The first page is loading: a spinner row. */
  loading: boolean;
  /** The text of the one row shown when there is no row. */
  emptyText?: string;
  /** An infinite query: the table scrolls inside the page, loads the next page near its bottom, offers "Load more". */
  paging?: InfiniteScrollSource;
  /** The actions column, last: extra buttons, edit and delete. */
  actions?: RowActions<T>;
  /** Columns as wide as their header says (long text wraps within them). */
  fixedLayout?: boolean;
  /** No cell wraps its text (the table scrolls sideways on a narrow screen). */
  noWrap?: boolean;
}

/** A scrolling table keeps the page's header in view; phones have a taller header. */
const SCROLL_MAX_HEIGHT = { xs: 'calc(100vh - 260px)', sm: 'calc(100vh - 190px)' };
const NO_DELETE = async () => undefined;
const NO_PAGING: InfiniteScrollSource = { hasNextPage: false, isFetchingNextPage: false, fetchNextPage: async () => undefined };

/** The style of a column's cells: hidden below `showFrom`, then its own. */
function cellSx(showFrom: Breakpoint | undefined, own: SxProps<Theme> | undefined): SxProps<Theme> {
  const shown = showFrom ? { display: { xs: 'none', [showFrom]: 'table-cell' } } : {};
  return [shown, ...(Array.isArray(own) ? (own as SxProps<Theme>[]) : [own ?? {}])] as SxProps<Theme>;
}

/** A list page's table: a header row, a row for each item with its actions, and rows for loading and for none. */
export function DataTable<T extends { id: number }>(props: DataTableProps<T>) {
  const { rows, label, testId, rowTestId, loading, emptyText, paging, actions, fixedLayout, noWrap } = props;
  const { t } = useTranslation();
  const { loadMore, onScroll } = useInfiniteScroll(paging ?? NO_PAGING);
  const deleteAction = actions?.delete;
  const deletion = useConfirmedDelete<T>(deleteAction?.remove ?? NO_DELETE, () => toastSuccess(deleteAction?.deletedText ?? ''));
  const columns = props.columns.filter((c): c is DataColumn<T> => c !== false);
  const span = columns.length + (actions ? 1 : 0);

  return (
    <>
      <Paper variant="outlined">
        <TableContainer sx={paging ? { maxHeight: SCROLL_MAX_HEIGHT } : undefined} onScroll={paging ? onScroll : undefined}>
          <Table
            stickyHeader={!!paging}
            size="small"
            sx={{ ...(fixedLayout && { tableLayout: 'fixed' }), ...(noWrap && { '& td, & th': { whiteSpace: 'nowrap' } }) }}
            data-testid={testId}
            aria-label={label}
          >
            <TableHead>
              <TableRow>
                {columns.map((c) =>
                  c.headerHidden ? (
                    <TableCell key={c.header} padding={c.padding} aria-label={c.header} sx={cellSx(c.showFrom, undefined)} />
                  ) : (
                    <TableCell key={c.header} padding={c.padding} align={c.align} sx={cellSx(c.showFrom, { width: c.width })}>
                      {c.header}
                    </TableCell>
                  ),
                )}
                {actions && (
                  <TableCell align="right" sx={{ width: actions.width }}>
                    {t('common.actions')}
                  </TableCell>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} hover data-testid={rowTestId} data-id={row.id}>
                  {columns.map((c) => (
                    <TableCell key={c.header} padding={c.padding} align={c.align} sx={cellSx(c.showFrom, c.sx)}>
                      {c.cell(row)}
                    </TableCell>
                  ))}
                  {actions && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: { xs: 0.5, sm: 2 } }}>
                      {actions.extra?.(row)}
                      {actions.edit && (
                        <IconButton size="small" aria-label={actions.edit.label(row)} onClick={() => actions.edit?.onClick(row)}>
                          <EditIcon fontSize="small" />
                        </IconButton>
                      )}
                      {deleteAction && !deleteAction.hidden?.(row) && (
                        <IconButton size="small" aria-label={deleteAction.label(row)} onClick={() => deletion.ask(row)}>
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))}
              {!loading && rows.length === 0 && emptyText !== undefined && (
                <TableRow>
                  <TableCell colSpan={span} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {emptyText}
                  </TableCell>
                </TableRow>
              )}
              {(loading || paging?.isFetchingNextPage) && (
                <TableRow>
                  <TableCell colSpan={span} align="center" sx={{ py: 2 }}>
                    <CircularProgress size={24} aria-label={t('common.loading')} />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        {paging?.hasNextPage && !paging.isFetchingNextPage && (
          <Box sx={{ p: 1, textAlign: 'center' }}>
            <Button onClick={loadMore}>{t('common.loadMore')}</Button>
          </Box>
        )}
      </Paper>
      {deleteAction && (
        <ConfirmDeleteDialog deletion={deletion} title={deleteAction.confirmTitle} text={deleteAction.confirmText} />
      )}
    </>
  );
}
