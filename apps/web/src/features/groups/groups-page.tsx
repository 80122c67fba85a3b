import Button from '@mui/material/Button';
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
import { isActiveJob } from '../../services/live-record';
import { ConnectionPicker, useChosenConnection } from '../connections/connection-picker';
import { GroupActionForm } from './group-action-form';
import { GROUP_ACTION_COLORS, GroupActionPanel } from './group-action-panel';
import { useGroupAction, useGroupActions, useGroupActionsLiveUpdates, useGroups } from './groups-api';
import { JobStatusChip } from '../../components/job-progress';

/** /ZDGGroups (§2, issue 13): the six group actions on every group of a connection, run as paced jobs. Admins only. */
export function GroupsPage() {
  const { t } = useTranslation();
  useGroupActionsLiveUpdates();
  const { connections, whatsappId, choose } = useChosenConnection();
  const groups = useGroups(whatsappId);
  const actions = useGroupActions();
  const all = actions.data?.pages.flatMap((p) => p.groupActions) ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const shownId = chosen ?? all.find(isActiveJob)?.id ?? all[0]?.id ?? null;
  const shown = useGroupAction(shownId);

  return (
    <Page title={t('pages.groups')}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
            <Stack spacing={2}>
              <ConnectionPicker connections={connections} whatsappId={whatsappId} onChange={choose} testId="groups-connection" />
              <Typography variant="body2" color="text.secondary" data-testid="groups-count">
                {groups.isLoading
                  ? t('common.loading')
                  : groups.isError
                    ? t('groups.groupsUnavailable')
                    : t('groups.groupCount', { count: groups.data?.length ?? 0 })}
              </Typography>
              <GroupActionForm whatsappId={whatsappId} onStarted={(started) => setChosen(started.groupAction.id)} />
            </Stack>
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2}>
            {shown.data ? (
              <GroupActionPanel action={shown.data} />
            ) : (
              <EmptyState title={t('groups.noneRunning')} text={t('groups.noneRunningText')} testId="group-action-none" />
            )}
            <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {t('groups.history')}
              </Typography>
              {all.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {actions.isLoading ? t('common.loading') : t('groups.empty')}
                </Typography>
              ) : (
                <Table size="small" aria-label={t('groups.history')} data-testid="group-action-history">
                  <TableHead>
                    <TableRow>
                      <TableCell>#</TableCell>
                      <TableCell>{t('groups.actionLabel')}</TableCell>
                      <TableCell>{t('campaigns.statusLabel')}</TableCell>
                      <TableCell align="right">{t('groups.doneLabel')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {all.map((a) => (
                      <TableRow key={a.id} hover selected={a.id === shownId} onClick={() => setChosen(a.id)} sx={{ cursor: 'pointer' }}>
                        <TableCell>{a.id}</TableCell>
                        <TableCell>{t(`groups.tabs.${a.kind}`)}</TableCell>
                        <TableCell>
                          <JobStatusChip job={a} label={t(`groups.status.${a.status}`)} color={GROUP_ACTION_COLORS[a.status]} />
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {a.done} / {a.total}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              {actions.hasNextPage && (
                <Button onClick={() => void actions.fetchNextPage()} disabled={actions.isFetchingNextPage}>
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
