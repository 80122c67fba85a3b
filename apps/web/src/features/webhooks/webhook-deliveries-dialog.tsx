import type { WebhookDeliveryDto, WebhookDto } from '@wadesk/contracts';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import ReplayIcon from '@mui/icons-material/Replay';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useWebhookActions, useWebhookDeliveries } from './webhooks-api';

const STATUS_COLOR = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

/** A webhook's delivery log: each event's state, the receiver's answer, when, attempts, the last error; redeliver. */
export function WebhookDeliveriesDialog({ webhook, onClose }: { webhook: WebhookDto; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const deliveries = useWebhookDeliveries(webhook.id);
  const { redeliver } = useWebhookActions();
  const [busy, setBusy] = useState<number | null>(null);
  const time = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });

  const again = async (delivery: WebhookDeliveryDto) => {
    setBusy(delivery.id);
    try {
      await redeliver(webhook.id, delivery.id);
      toastSuccess(t('webhooks.log.redelivered'));
      await deliveries.refetch();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth fullScreen={fullScreen} scroll="paper" aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ wordBreak: 'break-all' }}>
        {t('webhooks.log.title', { url: webhook.url })}
      </DialogTitle>
      <DialogContent dividers sx={{ p: { xs: 1, sm: 2 } }}>
        <DataTable
          rows={deliveries.data ?? []}
          label={t('webhooks.log.label')}
          testId="webhook-deliveries"
          rowTestId="webhook-delivery"
          loading={deliveries.isLoading}
          emptyText={t('webhooks.log.empty')}
          paging={deliveries}
          columns={[
            {
              header: t('webhooks.log.event'),
              cell: (d) => (
                <>
                  <Typography variant="body2">{d.event === 'webhook.test' ? t('webhooks.log.test') : t(`webhooks.events.${d.event.replace('.', '_')}`)}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {time(d.createdAt)}
                  </Typography>
                </>
              ),
            },
            {
              header: t('webhooks.log.status'),
              cell: (d) => <Chip size="small" color={STATUS_COLOR[d.status]} label={t(`webhooks.status.${d.status}`)} data-testid="delivery-status" />,
            },
            { header: t('webhooks.log.code'), cell: (d) => d.responseCode ?? '—' },
            { header: t('webhooks.log.attempts'), showFrom: 'sm', cell: (d) => d.attempts },
            {
              header: t('webhooks.log.when'),
              showFrom: 'md',
              cell: (d) =>
                d.deliveredAt ? time(d.deliveredAt) : d.nextAttemptAt && d.status === 'pending' ? t('webhooks.log.next', { time: time(d.nextAttemptAt) }) : '—',
            },
            {
              header: t('webhooks.log.error'),
              showFrom: 'sm',
              sx: { wordBreak: 'break-word', maxWidth: 280 },
              cell: (d) => (
                <Typography variant="caption" color="text.secondary">
                  {d.lastError ?? ''}
                </Typography>
              ),
            },
          ]}
          actions={{
            extra: (d) =>
              d.status === 'pending' ? null : (
                <Tooltip title={t('webhooks.log.redeliver')}>
                  <span>
                    <IconButton aria-label={t('webhooks.log.redeliverEvent', { id: d.id })} onClick={() => void again(d)} disabled={busy === d.id} size="small">
                      <ReplayIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              ),
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('webhooks.log.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
