import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { useServerFeatures } from '../layout/use-server-features';
import { useWhatsapps } from './connections-api';

/**
 * The QR code of a connection waiting to be paired (§4). It follows the live list, so a new code
 * replaces the old one, and it closes by itself once the code is gone (scanned, or the session left
 * the qrcode state).
 */
export function QrCodeDialog({ whatsappId, onClose }: { whatsappId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: whatsapps } = useWhatsapps();
  const whatsapp = whatsapps?.find((w) => w.id === whatsappId);
  const qrcode = whatsapp?.qrcode ?? '';
  const hadQr = useRef(false);
  const { features } = useServerFeatures();
  // A Simulator connection is paired on the /simulator page, not with a phone.
  const simulator = whatsapp?.channel === 'simulator' && features.simulator;

  useEffect(() => {
    if (qrcode) hadQr.current = true;
    else if (hadQr.current || whatsapp?.status === 'CONNECTED') onClose();
  }, [qrcode, whatsapp?.status, onClose]);

  useEffect(() => {
    if (whatsapps && !whatsapp) onClose(); // deleted meanwhile
  }, [whatsapps, whatsapp, onClose]);

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="qr-dialog-title" data-testid="qr-dialog">
      <DialogTitle id="qr-dialog-title">
        {t('connections.qr.title')}
        {whatsapp && (
          <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
            {whatsapp.name}
          </Typography>
        )}
      </DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 280, gap: 2 }}>
          {qrcode ? (
            <>
              <Box sx={{ p: 1.5, bgcolor: 'common.white', borderRadius: 1, lineHeight: 0 }}>
                <QRCodeSVG
                  value={qrcode}
                  size={256}
                  marginSize={2}
                  role="img"
                  aria-label={t('connections.qr.imageLabel')}
                  data-testid="qr-image"
                  style={{ width: '100%', maxWidth: 256, height: 'auto' }}
                />
              </Box>
              {simulator ? (
                <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
                  <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
                    {t('connections.qr.simulatorHelp')}
                  </Typography>
                  <Button
                    variant="contained"
                    startIcon={<PhoneAndroidIcon />}
                    component={RouterLink}
                    to={`/simulator?connection=${whatsappId}`}
                    onClick={onClose}
                    data-testid="qr-open-simulator"
                  >
                    {t('connections.qr.openSimulator')}
                  </Button>
                </Stack>
              ) : (
                <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
                  {t('connections.qr.help')}
                </Typography>
              )}
            </>
          ) : (
            <Box sx={{ display: 'grid', placeItems: 'center', gap: 2 }} data-testid="qr-waiting">
              <CircularProgress />
              <Typography>{t('connections.qr.waiting')}</Typography>
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('connections.qr.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
