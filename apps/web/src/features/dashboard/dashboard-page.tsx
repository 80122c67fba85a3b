import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import HeadsetMicIcon from '@mui/icons-material/HeadsetMic';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { isAdmin } from '@wadesk/contracts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { useAuth } from '../auth/auth-context';
import { useQueueList } from '../queues/queues-api';
import { QueueSelect } from '../tickets/queue-select';
import { CounterCard } from './counter-card';
import { useDashboard, useDashboardLiveUpdates } from './dashboard-api';

/** The chart library (recharts) is loaded by the dashboard only, after its counters (issue 34 item 4). */
const TicketsPerHourChart = lazy(() => import('./tickets-per-hour-chart').then((m) => ({ default: m.TicketsPerHourChart })));

/**
 * §2 Dashboard: In service, Waiting and Closed counters for the user's queues (admins may choose any queues, attendants
 * among theirs), and today's tickets per hour, in the viewer's time zone.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const { data: allQueues } = useQueueList(admin);
  const own = user?.queues ?? [];
  const choices = admin ? (allQueues ?? own) : own;
  const [chosen, setChosen] = useState<number[] | undefined>(undefined);
  const { data } = useDashboard(chosen);
  useDashboardLiveUpdates();

  return (
    <Page title={t('pages.dashboard')}>
      <Box data-testid="dashboard">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mt: -1, mb: 2 }}>
          <Typography color="text.secondary" sx={{ flex: 1 }}>
            {t('dashboard.welcome', { name: user?.name ?? '' })}
          </Typography>
          <QueueSelect queues={choices} selected={chosen ?? own.map((q) => q.id)} onChange={setChosen} />
        </Box>
        <Grid container spacing={{ xs: 1, sm: 2 }} sx={{ mb: 2 }}>
          <Grid size={4}>
            <CounterCard
              label={t('dashboard.inService')}
              value={data?.counts.open}
              icon={<HeadsetMicIcon />}
              color="primary"
              testId="counter-open"
            />
          </Grid>
          <Grid size={4}>
            <CounterCard
              label={t('dashboard.waiting')}
              value={data?.counts.pending}
              icon={<HourglassEmptyIcon />}
              color="warning"
              testId="counter-pending"
            />
          </Grid>
          <Grid size={4}>
            <CounterCard
              label={t('dashboard.closed')}
              value={data?.counts.closed}
              icon={<CheckCircleOutlineIcon />}
              color="success"
              testId="counter-closed"
            />
          </Grid>
        </Grid>
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }} data-testid="tickets-per-hour">
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('dashboard.chartTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('dashboard.chartSubtitle')}
          </Typography>
          {data ? (
            <Suspense fallback={<Skeleton variant="rounded" height={280} />}>
              <TicketsPerHourChart data={data.ticketsPerHour} label={t('dashboard.tickets')} />
            </Suspense>
          ) : (
            <Skeleton variant="rounded" height={280} />
          )}
        </Paper>
      </Box>
    </Page>
  );
}
