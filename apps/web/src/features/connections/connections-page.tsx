import { isAdmin, type WhatsappDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import PhonelinkOffIcon from '@mui/icons-material/PhonelinkOff';
import StarIcon from '@mui/icons-material/Star';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ListPage } from '../../components/list-page';
import { useAuth } from '../auth/auth-context';
import { ConnectionModal } from './connection-modal';
import { ConnectionStatus, SessionActions } from './connection-status';
import { useWhatsappActions, useWhatsapps } from './connections-api';
import { formatDateTime } from '../../services/dates';
import { QrCodeDialog } from './qr-code-dialog';

function DefaultStar({ label }: { label: string }) {
  return (
    <Tooltip title={label}>
      <StarIcon
        fontSize="small"
        sx={{ color: 'warning.main', verticalAlign: 'middle', ml: 0.5 }}
        role="img"
        aria-label={label}
        aria-hidden={false}
        data-testid="connection-default"
      />
    </Tooltip>
  );
}

export function ConnectionsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const { data: whatsapps = [], isLoading, isError } = useWhatsapps();
  const [modal, setModal] = useState<{ whatsappId?: number } | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const closeQr = useCallback(() => setQrFor(null), []);
  const compact = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  const { remove } = useWhatsappActions();

  const sorted = [...whatsapps].sort((a, b) => a.id - b.id);
  const defaultStar = (w: WhatsappDto) => w.isDefault && <DefaultStar label={t('connections.isDefault')} />;
  const sessionActions = (w: WhatsappDto) => <SessionActions whatsapp={w} canManage={admin} onShowQr={() => setQrFor(w.id)} />;

  return (
    <ListPage
      title={t('pages.connections')}
      actions={
        !admin && (
          <Typography variant="body2" color="text.secondary" data-testid="connections-read-only">
            {t('connections.readOnly')}
          </Typography>
        )
      }
      add={admin ? { label: t('connections.add'), onClick: () => setModal({}) } : undefined}
    >
      {!isLoading && !isError && sorted.length === 0 ? (
        <EmptyState
          icon={<PhonelinkOffIcon fontSize="large" />}
          title={t('connections.empty.title')}
          text={admin ? t('connections.empty.textAdmin') : t('connections.empty.text')}
          testId="connections-empty"
        />
      ) : (
        <DataTable
          rows={sorted}
          // Under 600 px the table keeps name, status (with the session action below it) and actions.
          columns={[
            !compact && { header: t('connections.columns.id'), cell: (w) => w.id },
            {
              header: t('connections.columns.name'),
              cell: (w) => (
                <>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {w.name}
                    {compact && defaultStar(w)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t(`connections.channels.${w.channel}`)}
                  </Typography>
                </>
              ),
            },
            {
              header: t('connections.columns.status'),
              cell: (w) => (
                <>
                  <ConnectionStatus status={w.status} lastError={w.lastError} />
                  {compact && admin && <Box sx={{ mt: 0.75 }}>{sessionActions(w)}</Box>}
                </>
              ),
            },
            // Attendants see the connections and their states read-only (docs/decisions/0009): no session or actions column.
            !compact && admin && { header: t('connections.columns.session'), cell: sessionActions },
            !compact && { header: t('connections.columns.lastUpdate'), cell: (w) => formatDateTime(w.updatedAt, 'dateTime') },
            !compact && { header: t('connections.columns.default'), align: 'center', cell: defaultStar },
          ]}
          label={t('pages.connections')}
          testId="connections-table"
          rowTestId="connection-row"
          loading={isLoading}
          noWrap={!compact}
          actions={
            admin
              ? {
                  edit: { label: (w) => t('connections.edit', { name: w.name }), onClick: (w) => setModal({ whatsappId: w.id }) },
                  delete: {
                    label: (w) => t('connections.delete', { name: w.name }),
                    confirmTitle: (w) => t('connections.confirmDelete.title', { name: w.name }),
                    confirmText: t('connections.confirmDelete.text'),
                    remove,
                    deletedText: t('connections.deleted'),
                  },
                }
              : undefined
          }
        />
      )}
      {isError && (
        <Box sx={{ mt: 2, color: 'error.main' }}>
          <Typography variant="body2">{t('connections.loadError')}</Typography>
        </Box>
      )}
      {modal && (
        <ConnectionModal
          onClose={() => setModal(null)}
          whatsappId={modal.whatsappId}
          first={modal.whatsappId === undefined && whatsapps.length === 0}
        />
      )}
      {qrFor !== null && <QrCodeDialog whatsappId={qrFor} onClose={closeQr} />}
    </ListPage>
  );
}
