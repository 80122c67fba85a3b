import type { UserDto } from '@wadesk/contracts';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { useListSearch } from '../../hooks/use-list-search';
import { useAuth } from '../auth/auth-context';
import { ResetMfaButton, ResetMfaDialog } from '../mfa/reset-mfa-action';
import { UserModal } from './user-modal';
import { USER_SEARCH_MIN_LENGTH, useUserActions, useUsersList, useUsersLiveUpdates } from './users-api';

export function UsersPage() {
  const { t } = useTranslation();
  const search = useListSearch(USER_SEARCH_MIN_LENGTH);
  const list = useUsersList(search.param);
  const [modal, setModal] = useState<{ userId?: number } | null>(null);
  const [mfaReset, setMfaReset] = useState<UserDto | null>(null);
  useUsersLiveUpdates();
  const { remove } = useUserActions();
  const { user: me } = useAuth();

  return (
    <ListPage title={t('pages.users')} search={search} add={{ label: t('users.add'), onClick: () => setModal({}) }}>
      <DataTable
        rows={list.data ?? []}
        columns={[
          {
            header: t('users.fields.name'),
            cell: (user) => (
              <>
                {user.name}
                {/* On phones the e-mail column is hidden: the e-mail goes under the name. */}
                <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { xs: 'block', sm: 'none' } }}>
                  {user.email}
                </Typography>
              </>
            ),
          },
          { header: t('users.fields.email'), showFrom: 'sm', cell: (user) => user.email },
          { header: t('users.fields.profile'), cell: (user) => t(`users.profiles.${user.profile}`) },
          { header: t('users.fields.connection'), showFrom: 'sm', cell: (user) => user.whatsapp?.name ?? '' },
        ]}
        label={t('pages.users')}
        testId="users-table"
        rowTestId="user-row"
        loading={list.isLoading}
        emptyText={t('users.empty')}
        paging={list}
        noWrap
        actions={{
          extra: (u) => <ResetMfaButton user={u} onClick={setMfaReset} />,
          edit: { label: (u) => t('users.editUser', { name: u.name }), onClick: (u) => setModal({ userId: u.id }) },
          delete: {
            label: (u) => t('users.deleteUser', { name: u.name }),
            confirmTitle: (u) => t('users.confirmDelete.title', { name: u.name }),
            confirmText: t('users.confirmDelete.text'),
            remove,
            deletedText: t('users.deleted'),
            // One's own user cannot be deleted (ERR_CANNOT_DELETE_SELF): no button that can only fail.
            hidden: (u) => u.id === me?.id,
          },
        }}
      />
      {mfaReset && <ResetMfaDialog user={mfaReset} onClose={() => setMfaReset(null)} />}
      {modal && <UserModal open onClose={() => setModal(null)} userId={modal.userId} />}
    </ListPage>
  );
}
