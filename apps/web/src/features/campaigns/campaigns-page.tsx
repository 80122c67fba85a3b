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
import type { BulkMediaFolderDto, CampaignKind } from '@wadesk/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { CampaignForm } from './campaign-form';
import { CAMPAIGN_COLORS, CampaignPanel } from './campaign-panel';
import { activeCampaignOf, useCampaign, useCampaigns, useCampaignsLiveUpdates, useMediaFolder } from './campaigns-api';
import { JobStatusChip } from '../../components/job-progress';
import { formatDateTime } from '../../services/dates';

const TITLE_KEYS: Record<CampaignKind, string> = {
  text: 'pages.bulkText',
  mediaUrl: 'pages.bulkMediaUrl',
  mediaPath: 'pages.bulkMediaPath',
  audio: 'pages.bulkAudio',
};

/** Where /ZDGMedia2's files must be: the folder's name (attendants never read the server's paths); admins also read its path. */
function mediaFolderHelp(t: TFunction, folder: BulkMediaFolderDto | undefined): string {
  const label = folder?.label ?? '…';
  return folder?.folder ? t('campaigns.pathHelpAdmin', { folder: label, path: folder.folder }) : t('campaigns.pathHelp', { folder: label });
}

/** One bulk-send tool (/ZDG, /ZDGMedia, /ZDGMedia2, /ZDGMedia3): its form, the campaign under way, past campaigns. */
export function CampaignsPage({ kind }: { kind: CampaignKind }) {
  const { t } = useTranslation();
  useCampaignsLiveUpdates();
  const campaigns = useCampaigns();
  const all = campaigns.data?.pages.flatMap((p) => p.campaigns) ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const past = all.filter((c) => c.kind === kind);
  // Coming back to the page shows the send still under way, or else the last one with its results.
  const shownId = chosen ?? activeCampaignOf(kind, all)?.id ?? past[0]?.id ?? null;
  const shown = useCampaign(shownId);
  const folder = useMediaFolder(kind === 'mediaPath');

  return (
    <Page title={t(TITLE_KEYS[kind])}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
            <CampaignForm
              kind={kind}
              onStarted={(created) => setChosen(created.id)}
              pathHelp={kind === 'mediaPath' ? mediaFolderHelp(t, folder) : undefined}
              pathFiles={kind === 'mediaPath' ? folder?.files : undefined}
            />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2}>
            {shown.data ? (
              <CampaignPanel campaign={shown.data} />
            ) : (
              <EmptyState title={t('campaigns.noneRunning')} text={t('campaigns.noneRunningText')} testId="campaign-none" />
            )}
            <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {t('campaigns.history')}
              </Typography>
              {past.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {campaigns.isLoading ? t('common.loading') : t('campaigns.empty')}
                </Typography>
              ) : (
                <Table size="small" aria-label={t('campaigns.history')} data-testid="campaign-history">
                  <TableHead>
                    <TableRow>
                      <TableCell>#</TableCell>
                      <TableCell>{t('campaigns.createdAt')}</TableCell>
                      <TableCell>{t('campaigns.statusLabel')}</TableCell>
                      <TableCell align="right">{t('campaigns.sentLabel')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {past.map((c) => (
                      <TableRow key={c.id} hover selected={c.id === shownId} onClick={() => setChosen(c.id)} sx={{ cursor: 'pointer' }}>
                        <TableCell>{c.id}</TableCell>
                        <TableCell>{formatDateTime(c.createdAt, 'dateTime')}</TableCell>
                        <TableCell>
                          <JobStatusChip job={c} label={t(`campaigns.status.${c.status}`)} color={CAMPAIGN_COLORS[c.status]} />
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {c.sent} / {c.total}
                          {c.failed > 0 && ` (${t('campaigns.failedCount', { count: c.failed })})`}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              {campaigns.hasNextPage && (
                <Button onClick={() => void campaigns.fetchNextPage()} disabled={campaigns.isFetchingNextPage}>
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

/** The four tools' pages (routes take components without props). */
export const BulkTextPage = () => <CampaignsPage kind="text" />;
export const BulkMediaUrlPage = () => <CampaignsPage kind="mediaUrl" />;
export const BulkMediaPathPage = () => <CampaignsPage kind="mediaPath" />;
export const BulkAudioPage = () => <CampaignsPage kind="audio" />;
