import InstagramIcon from '@mui/icons-material/Instagram';
import { useTranslation } from 'react-i18next';
import { useWhatsapps } from '../layout/use-connections-attention';

/** The icon of a ticket's channel when it is not WhatsApp (Instagram direct, issue 16); nothing otherwise. */
export function ChannelIcon({ whatsappId }: { whatsappId: number }) {
  const { t } = useTranslation();
  const { data } = useWhatsapps();
  const channel = data?.find((w) => w.id === whatsappId)?.channel;
  if (channel !== 'instagram') return null;
  return <InstagramIcon fontSize="inherit" titleAccess={t('connections.channels.instagram')} sx={{ color: '#C13584', verticalAlign: 'middle', mr: 0.5 }} data-testid="channel-instagram" />;
}
