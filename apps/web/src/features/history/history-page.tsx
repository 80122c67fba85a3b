import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { ConnectionPicker, useChosenConnection } from '../connections/connection-picker';
import { formatDate } from '../../services/dates';
import { isActiveJob } from '../../services/live-record';
import { useDeviceHistory, useHistoryImport, useHistoryImports, useHistoryImportsLiveUpdates } from './history-api';
import { HistoryImportForm } from './history-import-form';
import { HISTORY_IMPORT_COLORS, HistoryImportPanel } from './history-import-panel';

/**
 * /ZDGHistorico (§2, issue 14): imports the messages the phone holds (its history, kept by the server since the
 * phone sent it) into contacts and tickets, with a limit of messages per chat, every chat or one contact's. Admins only.
 */
export function HistoryPage() {
  const { t } = useTranslation();
  const { connections, whatsappId, choose } = useChosenConnection();
  const device = useDeviceHistory(whatsappId);
  const imports = useHistoryImports();
  const all = imports.data?.pages.flatMap((p) => p.historyImports) ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const shownId = chosen ?? all.find(isActiveJob)?.id ?? all[0]?.id ?? null;
  const shown = useHistoryImport(shownId);
  useHistoryImportsLiveUpdates((item) => {
    if (item.status === 'done') void device.refetch();
  });

  const deviceText = device.isLoading
    ? t('common.loading')
    : device.isError || !device.data
      ? t('historyImport.deviceUnavailable')
      : device.data.messages === 0
        ? t('historyImport.deviceEmpty')
        : t('historyImport.deviceSummary', {
            messages: t('historyImport.messageCount', { count: device.data.messages }),
            chats: t('historyImport.chatCount', { count: device.data.chats }),
            from: device.data.oldest ? formatDate(device.data.oldest) : '',
            to: device.data.newest ? formatDate(device.data.newest) : '',
          });

  return (
    <Page title={t('pages.historyImport')}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
            <Stack spacing={2}>
              <Typography variant="body2" color="text.secondary">
                {t('historyImport.intro')}
              </Typography>
              <ConnectionPicker connections={connections} whatsappId={whatsappId} onChange={choose} testId="history-connection" />
              <Typography variant="body2" data-testid="history-device">
                {deviceText}
              </Typography>
              <HistoryImportForm whatsappId={whatsappId} onStarted={(started) => setChosen(started.historyImport.id)} />
            </Stack>
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2}>
            {shown.data ? (
              <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
                <HistoryImportPanel item={shown.data} />
              </Paper>
            ) : (
              <EmptyState title={t('historyImport.none')} text={t('historyImport.noneText')} testId="history-import-none" />
            )}
            <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {t('historyImport.past')}
              </Typography>
              {all.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {imports.isLoading ? t('common.loading') : imports.isError ? t('historyImport.loadFailed') : t('historyImport.empty')}
                </Typography>
              ) : (
                <Table size="small" aria-label={t('historyImport.past')} data-testid="history-import-list">
                  <TableHead>
                    <TableRow>
                      <TableCell>#</TableCell>
                      <TableCell>{t('campaigns.fields.connection')}</TableCell>
                      <TableCell>{t('campaigns.statusLabel')}</TableCell>
                      <TableCell align="right">{t('historyImport.chats')}</TableCell>
                      <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                        {t('historyImport.messages')}
                      </TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {all.map((i) => (
                      <TableRow
                        key={i.id}
                        hover
                        selected={i.id === shownId}
                        onClick={() => setChosen(i.id)}
                        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setChosen(i.id)}
                        tabIndex={0}
                        sx={{ cursor: 'pointer' }}
                      >
                        <TableCell>{i.id}</TableCell>
                        <TableCell sx={{ wordBreak: 'break-word' }}>{i.contactNumber ? `${i.whatsappName ?? i.whatsappId} · ${i.contactNumber}` : (i.whatsappName ?? i.whatsappId)}</TableCell>
                        <TableCell>
                          <Chip size="small" label={t(`historyImport.status.${i.status}`)} color={HISTORY_IMPORT_COLORS[i.status]} />
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {i.chatsDone} / {i.chatsTotal}
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', display: { xs: 'none', sm: 'table-cell' } }}>
                          {i.messagesImported}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              {imports.hasNextPage && (
                <Button onClick={() => void imports.fetchNextPage()} disabled={imports.isFetchingNextPage}>
                  {t('common.loadMore')}
                </Button>
              )}
            </Paper>
          </Stack>
        </Grid>
      </Grid>
    </Page>
  );
}
