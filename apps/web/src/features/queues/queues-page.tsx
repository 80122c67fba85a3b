import type { QueueDto } from '@wadesk/contracts';
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
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete';
import { toastSuccess } from '../../services/toast-error';
import { QueueModal } from './queue-modal';
import { deleteQueue, useApplyQueueChange, useQueueList, useQueuesLiveUpdates } from './queues-api';

const COLUMNS = 4;

export function QueuesPage() {
  const { t } = useTranslation();
  const { data: queues = [], isLoading } = useQueueList();
  const [modal, setModal] = useState<{ queue?: QueueDto } | null>(null);
  const applyChange = useApplyQueueChange();
  useQueuesLiveUpdates();

  const toDelete = useConfirmedDelete(
    ({ id }: QueueDto) => deleteQueue(id),
    ({ id }) => {
      applyChange({ action: 'delete', queueId: id });
      toastSuccess(t('queues.deleted'));
    },
  );

  return (
    <Page
      title={t('pages.queues')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({})}>
          {t('queues.add')}
        </Button>
      }
    >
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" data-testid="queues-table" aria-label={t('pages.queues')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('queues.fields.name')}</TableCell>
                <TableCell>{t('queues.fields.color')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('queues.fields.greeting')}</TableCell>
                <TableCell align="right">{t('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {queues.map((queue) => (
                <TableRow key={queue.id} hover data-testid="queue-row">
                  <TableCell sx={{ wordBreak: 'break-word' }}>{queue.name}</TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Box
                        data-testid="queue-swatch"
                        sx={{
                          width: 48,
                          height: 20,
                          borderRadius: 1,
                          bgcolor: queue.color,
                          border: 1,
                          borderColor: 'divider',
                          flexShrink: 0,
                        }}
                      />
                      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                        {queue.color}
                      </Typography>
                    </Box>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, maxWidth: 420 }}>
                    <Typography variant="body2" noWrap title={queue.greetingMessage}>
                      {queue.greetingMessage}
                    </Typography>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      size="small"
                      aria-label={t('queues.editQueue', { name: queue.name })}
                      onClick={() => setModal({ queue })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('queues.deleteQueue', { name: queue.name })}
                      onClick={() => toDelete.ask(queue)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
              {!isLoading && queues.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {t('queues.empty')}
                  </TableCell>
                </TableRow>
              )}
              {isLoading && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center" sx={{ py: 2 }}>
                    <CircularProgress size={24} aria-label={t('common.loading')} />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      {modal && <QueueModal onClose={() => setModal(null)} queue={modal.queue} />}
      <ConfirmDialog
        open={!!toDelete.target}
        title={t('queues.confirmDelete.title', { name: toDelete.target?.name ?? '' })}
        text={t('queues.confirmDelete.text')}
        confirmLabel={t('common.delete')}
        busy={toDelete.deleting}
        onConfirm={() => void toDelete.confirm()}
        onClose={toDelete.cancel}
      />
    </Page>
  );
}
