import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Slide from '@mui/material/Slide';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { connection } from '../services/connection-state';

/** Whether the app is reconnecting to the server (calls failing with a connection loss, or socket dropped). */
export function useReconnecting(): boolean {
  return useSyncExternalStore(connection.subscribe, connection.isReconnecting, () => false);
}

/**
 * The non-blocking "reconnecting" bar: fixed just under the 48 px app bar (or at the top of pages
 * without one), above the drawer but below dialogs; it neither takes clicks outside itself nor moves
 * the page. It goes by itself once the server answers again.
 */
export function ConnectionBanner({ belowAppBar }: { belowAppBar: boolean }) {
  const { t } = useTranslation();
  const reconnecting = useReconnecting();
  return (
    <Slide direction="down" in={reconnecting} mountOnEnter unmountOnExit>
      <Box
        data-testid="connection-banner"
        sx={{
          position: 'fixed',
          top: belowAppBar ? 48 : 0,
          left: 0,
          right: 0,
          zIndex: (theme) => theme.zIndex.drawer + 2,
          boxShadow: 2,
        }}
      >
        <Alert
          role="status"
          aria-live="polite"
          severity="warning"
          variant="standard"
          icon={<CloudOffIcon fontSize="inherit" />}
          sx={{ borderRadius: 0, py: 0, alignItems: 'center', justifyContent: 'center', '& .MuiAlert-message': { py: 0.75 } }}
        >
          {t('connection.lost')}
        </Alert>
        <LinearProgress color="warning" sx={{ height: 2 }} />
      </Box>
    </Slide>
  );
}
