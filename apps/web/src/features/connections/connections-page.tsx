import { isAdmin, type WhatsappDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import PhonelinkOffIcon from '@mui/icons-material/PhonelinkOff';
import StarIcon from '@mui/icons-material/Star';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete';
import { toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { ConnectionModal } from './connection-modal';
import { ConnectionStatus, SessionActions } from './connection-status';
import { deleteWhatsapp, useApplyWhatsappChange, useWhatsapps } from './connections-api';
import { formatShortDateTime } from './format-date';
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
  const applyChange = useApplyWhatsappChange();
  const [modal, setModal] = useState<{ whatsappId?: number } | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const closeQr = useCallback(() => setQrFor(null), []);
  // Under 600 px the table keeps name, status (with the session action below it) and actions.
  const compact = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Attendants see the connections and their states read-only (docs/decisions/0009): no session or actions column.
  const columns = (compact ? 2 : 5) + (admin ? (compact ? 1 : 2) : 0);

  const toDelete = useConfirmedDelete(
    ({ id }: WhatsappDto) => deleteWhatsapp(id),
    ({ id }) => {
      applyChange({ action: 'delete', whatsappId: id });
      toastSuccess(t('connections.deleted'));
    },
  );

  const sorted = [...whatsapps].sort((a, b) => a.id - b.id);

  return (
    <Page
      title={t('pages.connections')}
      actions={
        admin ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({})}>
            {t('connections.add')}
          </Button>
        ) : (
          <Typography variant="body2" color="text.secondary" data-testid="connections-read-only">
            {t('connections.readOnly')}
          </Typography>
        )
      }
    >
      {!isLoading && !isError && sorted.length === 0 ? (
        <EmptyState
          icon={<PhonelinkOffIcon fontSize="large" />}
          title={t('connections.empty.title')}
          text={admin ? t('connections.empty.textAdmin') : t('connections.empty.text')}
          testId="connections-empty"
        />
      ) : (
        <Paper variant="outlined">
          <TableContainer>
            <Table
              size="small"
              sx={compact ? undefined : { '& td, & th': { whiteSpace: 'nowrap' } }}
              data-testid="connections-table"
              aria-label={t('pages.connections')}
            >
              <TableHead>
                <TableRow>
                  {!compact && <TableCell>{t('connections.columns.id')}</TableCell>}
                  <TableCell>{t('connections.columns.name')}</TableCell>
                  <TableCell>{t('connections.columns.status')}</TableCell>
                  {!compact && (
                    <>
                      {admin && <TableCell>{t('connections.columns.session')}</TableCell>}
                      <TableCell>{t('connections.columns.lastUpdate')}</TableCell>
                      <TableCell align="center">{t('connections.columns.default')}</TableCell>
                    </>
                  )}
                  {admin && <TableCell align="right">{t('common.actions')}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {sorted.map((w) => (
                  <TableRow key={w.id} hover data-testid="connection-row" data-id={w.id}>
                    {!compact && <TableCell>{w.id}</TableCell>}
                    <TableCell>
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {w.name}
                        {compact && w.isDefault && <DefaultStar label={t('connections.isDefault')} />}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        {t(`connections.channels.${w.channel}`)}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <ConnectionStatus status={w.status} lastError={w.lastError} />
                      {compact && admin && (
                        <Box sx={{ mt: 0.75 }}>
                          <SessionActions whatsapp={w} canManage={admin} onShowQr={() => setQrFor(w.id)} />
                        </Box>
                      )}
                    </TableCell>
                    {!compact && (
                      <>
                        {admin && (
                          <TableCell>
                            <SessionActions whatsapp={w} canManage={admin} onShowQr={() => setQrFor(w.id)} />
                          </TableCell>
                        )}
                        <TableCell>{formatShortDateTime(w.updatedAt)}</TableCell>
                        <TableCell align="center">{w.isDefault && <DefaultStar label={t('connections.isDefault')} />}</TableCell>
                      </>
                    )}
                    {admin && (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: compact ? 0.5 : undefined }}>
                        <IconButton
                          size="small"
                          aria-label={t('connections.edit', { name: w.name })}
                          onClick={() => setModal({ whatsappId: w.id })}
                        >
                          <EditIcon fontSize="small" />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label={t('connections.delete', { name: w.name })}
                          onClick={() => toDelete.ask(w)}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
                {isLoading && (
                  <TableRow>
                    <TableCell colSpan={columns} align="center" sx={{ py: 3 }}>
                      <CircularProgress size={24} aria-label={t('common.loading')} />
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
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
      <ConfirmDialog
        open={!!toDelete.target}
        title={t('connections.confirmDelete.title', { name: toDelete.target?.name ?? '' })}
        text={t('connections.confirmDelete.text')}
        confirmLabel={t('common.delete')}
        busy={toDelete.deleting}
        onConfirm={() => void toDelete.confirm()}
        onClose={toDelete.cancel}
      />
    </Page>
  );
}
