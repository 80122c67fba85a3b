import { useTheme } from '@mui/material/styles';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formatHourSlot } from '../../services/dates';
import type { DashboardData } from './dashboard-api';

/** §2: bar size 40. */
const BAR_SIZE = 40;

/** Today's tickets per hour slot, 08:00 to 19:00. */
export function TicketsPerHourChart({ data, label }: { data: DashboardData['ticketsPerHour']; label: string }) {
  const theme = useTheme();
  // The hour slots as the interface language writes a time (8:00 AM, 08:00); re-rendered when it changes.
  useTranslation();
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={theme.palette.divider} />
        <XAxis
          dataKey="hour"
          tick={{ fontSize: 12, fill: theme.palette.text.secondary }}
          stroke={theme.palette.divider}
          interval="preserveStartEnd"
          tickFormatter={(slot: string) => formatHourSlot(slot)}
        />
        <YAxis
          allowDecimals={false}
          tick={{ fontSize: 12, fill: theme.palette.text.secondary }}
          stroke={theme.palette.divider}
        />
        <Tooltip
          labelFormatter={(slot) => (typeof slot === 'string' ? formatHourSlot(slot) : slot)}
          cursor={{ fill: theme.palette.action.hover }}
          contentStyle={{
            background: theme.palette.background.paper,
            border: `1px solid ${theme.palette.divider}`,
            borderRadius: 8,
          }}
        />
        <Bar dataKey="count" name={label} fill={theme.palette.primary.main} barSize={BAR_SIZE} radius={[4, 4, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}
