import type { UserDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useInfiniteScroll } from '../../hooks/use-infinite-scroll';
import { toastSuccess } from '../../services/toast-error';
import { UserModal } from './user-modal';
import { deleteUser, normalizeSearch, useApplyUserChange, useUsersList, useUsersLiveUpdates } from './users-api';

export function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = normalizeSearch(useDebouncedValue(search, 500));
  const { data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useUsersList(searchParam);
  const users = data?.pages.flatMap((p) => p.users) ?? [];
  const [modal, setModal] = useState<{ userId?: number } | null>(null);
  const applyChange = useApplyUserChange();
  useUsersLiveUpdates();

  const { loadMore, onScroll } = useInfiniteScroll({ hasNextPage, isFetchingNextPage, fetchNextPage });

  const toDelete = useConfirmedDelete(
    ({ id }: UserDto) => deleteUser(id),
    ({ id }) => {
      applyChange({ action: 'delete', userId: id });
      toastSuccess(t('users.deleted'));
    },
  );

  return (
    <Page
      title={t('pages.users')}
      actions={
        <>
          <TextField
            size="small"
            label={t('common.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ flexGrow: 1, minWidth: 0 }}
          />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({})} sx={{ flexShrink: 0 }}>
            {t('users.add')}
          </Button>
        </>
      }
    >
      <Paper variant="outlined">
        <TableContainer sx={{ maxHeight: 'calc(100vh - 190px)' }} onScroll={onScroll}>
          <Table
            stickyHeader
            size="small"
            sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}
            data-testid="users-table" aria-label={t('pages.users')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('users.fields.name')}</TableCell>
                <TableCell>{t('users.fields.email')}</TableCell>
                <TableCell>{t('users.fields.profile')}</TableCell>
                <TableCell>{t('users.fields.connection')}</TableCell>
                <TableCell align="right">{t('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {users.map((user) => (
                <TableRow key={user.id} hover data-testid="user-row">
                  <TableCell>{user.name}</TableCell>
                  <TableCell>{user.email}</TableCell>
                  <TableCell>{t(`users.profiles.${user.profile}`)}</TableCell>
                  <TableCell>{user.whatsapp?.name ?? ''}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      size="small"
                      aria-label={t('users.editUser', { name: user.name })}
                      onClick={() => setModal({ userId: user.id })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('users.deleteUser', { name: user.name })}
                      onClick={() => toDelete.ask(user)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
              {!isLoading && users.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {t('users.empty')}
                  </TableCell>
                </TableRow>
              )}
              {(isLoading || isFetchingNextPage) && (
                <TableRow>
                  <TableCell colSpan={5} align="center" sx={{ py: 2 }}>
                    <CircularProgress size={24} aria-label={t('common.loading')} />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        {hasNextPage && !isFetchingNextPage && (
          <Box sx={{ p: 1, textAlign: 'center' }}>
            <Button onClick={loadMore}>{t('common.loadMore')}</Button>
          </Box>
        )}
      </Paper>
      {modal && <UserModal open onClose={() => setModal(null)} userId={modal.userId} />}
      <ConfirmDialog
        open={!!toDelete.target}
        title={t('users.confirmDelete.title', { name: toDelete.target?.name ?? '' })}
        text={t('users.confirmDelete.text')}
        confirmLabel={t('common.delete')}
        busy={toDelete.deleting}
        onConfirm={() => void toDelete.confirm()}
        onClose={toDelete.cancel}
      />
    </Page>
  );
}
