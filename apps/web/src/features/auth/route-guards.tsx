import { isAdmin } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { Suspense, useEffect } from 'react';
import { lazyPage } from '../../app/lazy-page';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router-dom';
import { EmptyState } from '../../components/empty-state';
import { useAuth } from './auth-context';
import BlockIcon from '@mui/icons-material/Block';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }} role="status" aria-label={t('common.loading')}>
      <CircularProgress />
    </Box>
  );
}

/** The set-up an admin must go through first (mfaRequiredForAdmins): its own chunk, as the pages. */
const MfaRequiredPage = lazyPage(() => import('../mfa/mfa-required-page').then((m) => m.MfaRequiredPage));

/** Signed-in users only; others go to /login. An admin who must turn on two-factor sign-in first sees only that. */
export function PrivateRoute() {
  const { status, publicRedirect, clearPublicRedirect, mfaSetupRequired } = useAuth();
  const inside = status === 'authenticated';
  useEffect(() => {
    if (inside && publicRedirect !== '/') clearPublicRedirect();
  }, [inside, publicRedirect, clearPublicRedirect]);
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'anonymous') return <Navigate to="/login" replace />;
  if (mfaSetupRequired) {
    return (
      <Suspense fallback={<FullPageLoader />}>
        <MfaRequiredPage />
      </Suspense>
    );
  }
  return <Outlet />;
}

/** Signed-out users only; signed-in users go to /. */
export function PublicRoute() {
  const { status, publicRedirect } = useAuth();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'authenticated') return <Navigate to={publicRedirect} replace />;
  return <Outlet />;
}

/** Admin pages show a "no permission" state to other users (the server enforces it too). */
export function AdminRoute() {
  const { user } = useAuth();
  const { t } = useTranslation();
  if (!isAdmin(user)) {
    return (
      <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1200, mx: 'auto' }}>
        <EmptyState
        icon={<BlockIcon fontSize="large" color="error" />}
        title={t('noPermission.title')}
        text={t('errors.ERR_NO_PERMISSION')}
          testId="no-permission"
        />
      </Box>
    );
  }
  return <Outlet />;
}
