import type { ConnectionErrorDto, SessionStatus, WhatsappDto } from '@wadesk/contracts';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CropFreeIcon from '@mui/icons-material/CropFree';
import SignalWifiOffIcon from '@mui/icons-material/SignalWifiOff';
import SyncIcon from '@mui/icons-material/Sync';
import TimerOffIcon from '@mui/icons-material/TimerOff';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { toastError } from '../../services/toast-error';
import { connectionErrorText } from './connection-error';
import { sessionActions } from './connections-api';
import { formatDateTime } from '../../services/dates';

const STATUS_ICONS: Record<SessionStatus, ReactNode> = {
  OPENING: <CircularProgress size={18} color="inherit" />,
  qrcode: <CropFreeIcon fontSize="small" />,
  PAIRING: <SyncIcon fontSize="small" />,
  CONNECTED: <CheckCircleIcon fontSize="small" />,
  TIMEOUT: <TimerOffIcon fontSize="small" />,
  DISCONNECTED: <SignalWifiOffIcon fontSize="small" />,
};

const STATUS_COLORS: Record<SessionStatus, string> = {
  OPENING: 'info.main',
  qrcode: 'warning.main',
  PAIRING: 'info.main',
  CONNECTED: 'success.main',
  TIMEOUT: 'error.main',
  DISCONNECTED: 'error.main',
};

/** The status cell: an icon and the state's name, with an explanation on hover, and why it last failed. */
export function ConnectionStatus({ status, lastError }: { status: SessionStatus; lastError?: ConnectionErrorDto | null }) {
  const { t } = useTranslation();
  const failure = connectionErrorText(lastError, status, t);
  return (
    <Stack spacing={0.25}>
      <Tooltip title={t(`connections.statusHelp.${status}`)}>
        <Stack
          direction="row"
          spacing={0.75}
          sx={{ alignItems: 'center', color: STATUS_COLORS[status] }}
          data-testid="connection-status"
          data-status={status}
        >
          {STATUS_ICONS[status]}
          <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
            {t(`connections.status.${status}`)}
          </Typography>
        </Stack>
      </Tooltip>
      {failure && lastError && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ maxWidth: 320 }}
          title={t('connections.lastError.since', { time: formatDateTime(lastError.at, 'dateTime') })}
          data-testid="connection-last-error"
          data-code={lastError.code}
        >
          {failure}
        </Typography>
      )}
    </Stack>
  );
}

export interface SessionActionsProps {
  whatsapp: WhatsappDto;
  /** Admins may show the QR code, retry, ask for a new QR code and disconnect; others only see the state. */
  canManage: boolean;
  onShowQr: () => void;
}

/** The session cell: what can be done in the connection's state (§4). */
export function SessionActions({ whatsapp, canManage, onShowQr }: SessionActionsProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);

  const run = (action: (id: number) => Promise<void>) => {
    setBusy(true);
    action(whatsapp.id)
      .catch(toastError)
      .finally(() => setBusy(false));
  };

  switch (whatsapp.status) {
    case 'qrcode':
      // Whoever scans the code pairs their own phone as this connection: admins only, like every session change.
      return canManage ? (
        <Button size="small" variant="contained" startIcon={<CropFreeIcon />} onClick={onShowQr}>
          {t('connections.actions.qrcode')}
        </Button>
      ) : null;
    case 'DISCONNECTED':
      return canManage ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button size="small" variant="outlined" disabled={busy} onClick={() => run(sessionActions.retry)}>
            {t('connections.actions.retry')}
          </Button>
          <Button size="small" variant="outlined" color="secondary" disabled={busy} onClick={() => run(sessionActions.newQr)}>
            {t('connections.actions.newQr')}
          </Button>
        </Stack>
      ) : null;
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return canManage ? (
        <>
          <Button size="small" variant="outlined" color="error" disabled={busy} onClick={() => setConfirmDisconnect(true)}>
            {t('connections.actions.disconnect')}
          </Button>
          {/* Disconnecting stops the connection's conversations: ask first. */}
          <ConfirmDialog
            open={confirmDisconnect}
            title={t('connections.disconnectConfirm.title', { name: whatsapp.name })}
            text={t('connections.disconnectConfirm.text')}
            confirmLabel={t('connections.actions.disconnect')}
            busy={busy}
            onConfirm={() => {
              setConfirmDisconnect(false);
              run(sessionActions.disconnect);
            }}
            onClose={() => setConfirmDisconnect(false)}
          />
        </>
      ) : null;
    case 'OPENING':
      return (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} color="inherit" />}>
          {t('connections.actions.connecting')}
        </Button>
      );
  }
}
