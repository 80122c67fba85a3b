import type { LabelDto } from '@wadesk/contracts';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { LabelChip } from './label-chips';
import { LabelModal } from './label-modal';
import { useLabelActions, useLabelList, useLabelsLiveUpdates } from './labels-api';

/** The labels page (admins, issue 36 §2): every label with how many tickets and contacts carry it. */
export function LabelsPage() {
  const { t } = useTranslation();
  const { data: labels = [], isLoading } = useLabelList();
  const [modal, setModal] = useState<{ label?: LabelDto } | null>(null);
  useLabelsLiveUpdates();
  const { remove } = useLabelActions();

  return (
    <ListPage title={t('pages.labels')} add={{ label: t('labels.add'), onClick: () => setModal({}) }}>
      <DataTable
        rows={labels}
        columns={[
          { header: t('labels.fields.name'), sx: { wordBreak: 'break-word' }, cell: (label) => <LabelChip label={label} size="medium" /> },
          {
            header: t('labels.fields.color'),
            showFrom: 'sm',
            cell: (label) => (
              <Typography variant="caption" color="text.secondary">
                {label.color}
              </Typography>
            ),
          },
          {
            header: t('labels.fields.usage'),
            cell: (label) => (
              <Typography variant="body2" color="text.secondary" data-testid="label-usage">
                {t('labels.usage', { tickets: t('labels.tickets', { count: label.ticketCount }), contacts: t('labels.contacts', { count: label.contactCount }) })}
              </Typography>
            ),
          },
        ]}
        label={t('pages.labels')}
        testId="labels-table"
        rowTestId="label-row"
        loading={isLoading}
        emptyText={t('labels.empty')}
        actions={{
          edit: { label: (l) => t('labels.editLabel', { name: l.name }), onClick: (label) => setModal({ label }) },
          delete: {
            label: (l) => t('labels.deleteLabel', { name: l.name }),
            confirmTitle: (l) => t('labels.confirmDelete.title', { name: l.name }),
            confirmText: (l) =>
              l.ticketCount + l.contactCount === 0
                ? t('labels.confirmDelete.unused')
                : t('labels.confirmDelete.text', {
                    tickets: t('labels.tickets', { count: l.ticketCount }),
                    contacts: t('labels.contacts', { count: l.contactCount }),
                  }),
            remove,
            deletedText: t('labels.deleted'),
          },
        }}
      />
      {modal && <LabelModal onClose={() => setModal(null)} label={modal.label} />}
    </ListPage>
  );
}
