import type { QuickAnswerDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useInfiniteScroll } from '../../hooks/use-infinite-scroll';
import { toastSuccess } from '../../services/toast-error';
import { QuickAnswerModal } from './quick-answer-modal';
import {
  deleteQuickAnswer,
  normalizeQuickAnswerSearch,
  useApplyQuickAnswerChange,
  useQuickAnswersList,
  useQuickAnswersLiveUpdates,
} from './quick-answers-api';

const COLUMNS = 3;

export function QuickAnswersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = normalizeQuickAnswerSearch(useDebouncedValue(search, 500));
  const { data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useQuickAnswersList(searchParam);
  const quickAnswers = data?.pages.flatMap((p) => p.quickAnswers) ?? [];
  const [modal, setModal] = useState<{ quickAnswer?: QuickAnswerDto } | null>(null);
  const applyChange = useApplyQuickAnswerChange();
  useQuickAnswersLiveUpdates();

  const { loadMore, onScroll } = useInfiniteScroll({ hasNextPage, isFetchingNextPage, fetchNextPage });

  const toDelete = useConfirmedDelete(
    ({ id }: QuickAnswerDto) => deleteQuickAnswer(id),
    ({ id }) => {
      applyChange({ action: 'delete', quickAnswerId: id });
      toastSuccess(t('quickAnswers.deleted'));
    },
  );

  return (
    <Page
      title={t('pages.quickAnswers')}
      actions={
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'flex-end', width: '100%' }}>
          <TextField
            size="small"
            label={t('common.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ flex: { xs: '1 1 100%', sm: '1 1 220px' }, minWidth: 0 }}
          />
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setModal({})}
            sx={{ flex: { xs: '1 1 auto', sm: '0 0 auto' }, whiteSpace: 'nowrap' }}
          >
            {t('quickAnswers.add')}
          </Button>
        </Stack>
      }
    >
      <Paper variant="outlined">
        <TableContainer sx={{ maxHeight: 'calc(100vh - 190px)' }} onScroll={onScroll}>
          <Table
            stickyHeader
            size="small"
            sx={{ tableLayout: 'fixed' }}
            data-testid="quick-answers-table"
            aria-label={t('pages.quickAnswers')}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: { xs: '30%', sm: '25%' } }}>{t('quickAnswers.fields.shortcut')}</TableCell>
                <TableCell>{t('quickAnswers.fields.message')}</TableCell>
                <TableCell align="right" sx={{ width: 96 }}>
                  {t('common.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {quickAnswers.map((quickAnswer) => (
                <TableRow key={quickAnswer.id} hover data-testid="quick-answer-row">
                  <TableCell sx={{ wordBreak: 'break-word', fontWeight: 500 }}>{quickAnswer.shortcut}</TableCell>
                  <TableCell>
                    <Typography
                      variant="body2"
                      title={quickAnswer.message}
                      sx={{
                        display: '-webkit-box',
                        WebkitLineClamp: 2,
                        WebkitBoxOrient: 'vertical',
                        overflow: 'hidden',
                        overflowWrap: 'anywhere',
                      }}
                    >
                      {quickAnswer.message}
                    </Typography>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      size="small"
                      aria-label={t('quickAnswers.editQuickAnswer', { shortcut: quickAnswer.shortcut })}
                      onClick={() => setModal({ quickAnswer })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('quickAnswers.deleteQuickAnswer', { shortcut: quickAnswer.shortcut })}
                      onClick={() => toDelete.ask(quickAnswer)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
              {!isLoading && quickAnswers.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {searchParam ? t('quickAnswers.noMatch') : t('quickAnswers.empty')}
                  </TableCell>
                </TableRow>
              )}
              {(isLoading || isFetchingNextPage) && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center" sx={{ py: 2 }}>
                    <CircularProgress size={24} aria-label={t('common.loading')} />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        {hasNextPage && !isFetchingNextPage && (
          <Box sx={{ p: 1, textAlign: 'center' }}>
            <Button onClick={loadMore}>{t('common.loadMore')}</Button>
          </Box>
        )}
      </Paper>
      {modal && <QuickAnswerModal onClose={() => setModal(null)} quickAnswer={modal.quickAnswer} />}
      <ConfirmDialog
        open={!!toDelete.target}
        title={t('quickAnswers.confirmDelete.title', { shortcut: toDelete.target?.shortcut ?? '' })}
        text={t('quickAnswers.confirmDelete.text')}
        confirmLabel={t('common.delete')}
        busy={toDelete.deleting}
        onConfirm={() => void toDelete.confirm()}
        onClose={toDelete.cancel}
      />
    </Page>
  );
}
