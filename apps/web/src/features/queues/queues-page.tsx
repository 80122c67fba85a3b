import type { QueueDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { QueueModal } from './queue-modal';
import { useQueueActions, useQueueList, useQueuesLiveUpdates } from './queues-api';

function QueueColor({ color }: { color: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box
        data-testid="queue-swatch"
        sx={{ width: 48, height: 20, borderRadius: 1, bgcolor: color, border: 1, borderColor: 'divider', flexShrink: 0 }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        {color}
      </Typography>
    </Box>
  );
}

export function QueuesPage() {
  const { t } = useTranslation();
  const { data: queues = [], isLoading } = useQueueList();
  const [modal, setModal] = useState<{ queue?: QueueDto } | null>(null);
  useQueuesLiveUpdates();
  const { remove } = useQueueActions();

  return (
    <ListPage title={t('pages.queues')} add={{ label: t('queues.add'), onClick: () => setModal({}) }}>
      <DataTable
        rows={queues}
        columns={[
          {
            header: t('queues.fields.name'),
            sx: { wordBreak: 'break-word' },
            cell: (queue) => (
              <>
                {queue.name}
                {/* Automatic assignment on (issue 36 §4). */}
                {queue.autoAssign && (
                  <Chip
                    size="small"
                    variant="outlined"
                    icon={<AssignmentIndIcon />}
                    label={t('queues.autoAssignChip')}
                    sx={{ ml: 1 }}
                    data-testid="queue-auto-assign"
                  />
                )}
              </>
            ),
          },
          { header: t('queues.fields.color'), cell: (queue) => <QueueColor color={queue.color} /> },
          {
            header: t('queues.fields.greeting'),
            showFrom: 'sm',
            sx: { maxWidth: 420 },
            cell: (queue) => (
              <Typography variant="body2" noWrap title={queue.greetingMessage}>
                {queue.greetingMessage}
              </Typography>
            ),
          },
        ]}
        label={t('pages.queues')}
        testId="queues-table"
        rowTestId="queue-row"
        loading={isLoading}
        emptyText={t('queues.empty')}
        actions={{
          edit: { label: (q) => t('queues.editQueue', { name: q.name }), onClick: (queue) => setModal({ queue }) },
          delete: {
            label: (q) => t('queues.deleteQueue', { name: q.name }),
            confirmTitle: (q) => t('queues.confirmDelete.title', { name: q.name }),
            confirmText: t('queues.confirmDelete.text'),
            remove,
            deletedText: t('queues.deleted'),
          },
        }}
      />
      {modal && <QueueModal onClose={() => setModal(null)} queue={modal.queue} />}
    </ListPage>
  );
}
