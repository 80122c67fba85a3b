import type { QuickAnswerDto } from '@wadesk/contracts';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { useListSearch } from '../../hooks/use-list-search';
import { QuickAnswerModal } from './quick-answer-modal';
import {
  useQuickAnswerActions,
  useQuickAnswersList,
  useQuickAnswersLiveUpdates,
} from './quick-answers-api';

/** A message's first two lines. */
const CLAMPED = { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' };

export function QuickAnswersPage() {
  const { t } = useTranslation();
  const search = useListSearch();
  const list = useQuickAnswersList(search.param);
  const [modal, setModal] = useState<{ quickAnswer?: QuickAnswerDto } | null>(null);
  useQuickAnswersLiveUpdates();
  const { remove } = useQuickAnswerActions();

  return (
    <ListPage title={t('pages.quickAnswers')} search={search} add={{ label: t('quickAnswers.add'), onClick: () => setModal({}) }}>
      <DataTable
        rows={list.data ?? []}
        columns={[
          {
            header: t('quickAnswers.fields.shortcut'),
            width: { xs: '30%', sm: '25%' },
            sx: { wordBreak: 'break-word', fontWeight: 500 },
            cell: (answer) => answer.shortcut,
          },
          {
            header: t('quickAnswers.fields.message'),
            cell: (answer) => (
              <Typography variant="body2" title={answer.message} sx={CLAMPED}>
                {answer.message}
              </Typography>
            ),
          },
        ]}
        label={t('pages.quickAnswers')}
        testId="quick-answers-table"
        rowTestId="quick-answer-row"
        loading={list.isLoading}
        emptyText={search.param ? t('quickAnswers.noMatch') : t('quickAnswers.empty')}
        paging={list}
        fixedLayout
        actions={{
          width: 96,
          edit: {
            label: (a) => t('quickAnswers.editQuickAnswer', { shortcut: a.shortcut }),
            onClick: (quickAnswer) => setModal({ quickAnswer }),
          },
          delete: {
            label: (a) => t('quickAnswers.deleteQuickAnswer', { shortcut: a.shortcut }),
            confirmTitle: (a) => t('quickAnswers.confirmDelete.title', { shortcut: a.shortcut }),
            confirmText: t('quickAnswers.confirmDelete.text'),
            remove,
            deletedText: t('quickAnswers.deleted'),
          },
        }}
      />
      {modal && <QuickAnswerModal onClose={() => setModal(null)} quickAnswer={modal.quickAnswer} />}
    </ListPage>
  );
}
