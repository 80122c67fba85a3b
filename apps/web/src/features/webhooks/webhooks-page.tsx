import type { WebhookDto } from '@wadesk/contracts';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ListAltIcon from '@mui/icons-material/ListAlt';
import SendIcon from '@mui/icons-material/Send';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { toastError, toastSuccess } from '../../services/toast-error';
import { WebhookDeliveriesDialog } from './webhook-deliveries-dialog';
import { WebhookModal } from './webhook-modal';
import { useWebhookActions, useWebhookList } from './webhooks-api';

/** The webhooks page (admins, issue 37 §3): each webhook, its events, whether it is on, its waiting and failed deliveries. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const { data: webhooks = [], isLoading } = useWebhookList();
  const [modal, setModal] = useState<{ webhook?: WebhookDto } | null>(null);
  const [log, setLog] = useState<WebhookDto | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const { remove, test } = useWebhookActions();

  const runTest = async (webhook: WebhookDto) => {
    setTesting(webhook.id);
    try {
      const delivery = await test(webhook.id);
      if (delivery.status === 'delivered') toastSuccess(t('webhooks.testOk', { code: delivery.responseCode }));
      else toastError(new Error(t('webhooks.testFailed', { reason: delivery.lastError ?? '' })));
    } catch (err) {
      toastError(err);
    } finally {
      setTesting(null);
    }
  };

  return (
    <ListPage title={t('pages.webhooks')} add={{ label: t('webhooks.add'), onClick: () => setModal({}) }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('webhooks.intro')}
      </Typography>
      <DataTable
        rows={webhooks}
        columns={[
          {
            header: t('webhooks.fields.url'),
            sx: { wordBreak: 'break-all' },
            cell: (w) => (
              <Stack spacing={0.5}>
                <Typography variant="body2">{w.url}</Typography>
                <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap' }}>
                  <Chip size="small" color={w.active ? 'success' : 'default'} label={w.active ? t('webhooks.active') : t('webhooks.inactive')} />
                  {w.pending > 0 && <Chip size="small" color="warning" variant="outlined" label={t('webhooks.pending', { count: w.pending })} />}
                  {w.failed > 0 && <Chip size="small" color="error" variant="outlined" label={t('webhooks.failed', { count: w.failed })} />}
                </Stack>
              </Stack>
            ),
          },
          {
            header: t('webhooks.fields.events'),
            showFrom: 'sm',
            cell: (w) => (
              <Typography variant="caption" color="text.secondary">
                {w.events.map((e) => t(`webhooks.events.${e.replace('.', '_')}`)).join(', ')}
              </Typography>
            ),
          },
        ]}
        label={t('pages.webhooks')}
        testId="webhooks-table"
        rowTestId="webhook-row"
        loading={isLoading}
        emptyText={t('webhooks.empty')}
        actions={{
          extra: (w) => (
            <>
              <Tooltip title={t('webhooks.test')}>
                <span>
                  <IconButton aria-label={t('webhooks.testWebhook', { url: w.url })} onClick={() => void runTest(w)} disabled={testing === w.id} size="small">
                    <SendIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t('webhooks.log.open')}>
                <IconButton aria-label={t('webhooks.log.openFor', { url: w.url })} onClick={() => setLog(w)} size="small">
                  <ListAltIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </>
          ),
          edit: { label: (w) => t('webhooks.editWebhook', { url: w.url }), onClick: (webhook) => setModal({ webhook }) },
          delete: {
            label: (w) => t('webhooks.deleteWebhook', { url: w.url }),
            confirmTitle: () => t('webhooks.confirmDelete.title'),
            confirmText: (w) => t('webhooks.confirmDelete.text', { url: w.url }),
            remove,
            deletedText: t('webhooks.deleted'),
          },
        }}
      />
      {modal && <WebhookModal onClose={() => setModal(null)} webhook={modal.webhook} />}
      {log && <WebhookDeliveriesDialog webhook={log} onClose={() => setLog(null)} />}
    </ListPage>
  );
}
