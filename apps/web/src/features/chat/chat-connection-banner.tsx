import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { useWhatsapps } from '../layout/use-connections-attention';

/**
 * Inside a chat whose connection (the ticket's WhatsApp) is not CONNECTED: messages cannot go out until
 * it reconnects. Live: the app layout keeps the connections current (useWhatsappsLiveUpdates).
 */
export function ChatConnectionBanner({ whatsappId }: { whatsappId: number }) {
  const { t } = useTranslation();
  const { data } = useWhatsapps();
  const connection = data?.find((w) => w.id === whatsappId);
  if (!connection || connection.status === 'CONNECTED') return null;
  return (
    <Alert severity="warning" role="status" data-testid="chat-connection-down" data-status={connection.status} sx={{ borderRadius: 0, py: 0 }}>
      {t('chat.connectionDown', { name: connection.name, status: t(`connections.status.${connection.status}`) })}
    </Alert>
  );
}
