import { useTheme } from '@mui/material/styles';
import type { DailyReportRow } from '@wadesk/contracts';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../services/dates';

/** A day (YYYY-MM-DD) as the language writes a date, read as that calendar day wherever the browser is. */
const dayLabel = (day: string) => formatDateTime(`${day}T12:00:00Z`, 'date', { timeZone: 'UTC' });

/** Tickets handled and resolved (bars) and messages sent (line, right axis) per day of the period. */
export function DailyReportChart({ rows }: { rows: DailyReportRow[] }) {
  const theme = useTheme();
  const { t } = useTranslation();
  const axis = { fontSize: 12, fill: theme.palette.text.secondary };
  return (
    <ResponsiveContainer width="100%" height={280}>
      <ComposedChart data={rows} margin={{ top: 8, right: 0, bottom: 0, left: -16 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={theme.palette.divider} />
        <XAxis dataKey="day" tick={axis} stroke={theme.palette.divider} tickFormatter={(d: string) => dayLabel(d).slice(0, 5)} minTickGap={12} />
        <YAxis yAxisId="tickets" allowDecimals={false} tick={axis} stroke={theme.palette.divider} />
        <YAxis yAxisId="messages" orientation="right" allowDecimals={false} tick={axis} stroke={theme.palette.divider} />
        <Tooltip
          labelFormatter={(d) => (typeof d === 'string' ? dayLabel(d) : d)}
          cursor={{ fill: theme.palette.action.hover }}
          contentStyle={{ background: theme.palette.background.paper, border: `1px solid ${theme.palette.divider}`, borderRadius: 8 }}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="tickets" dataKey="ticketsHandled" name={t('reports.columns.ticketsHandled')} fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} maxBarSize={28} isAnimationActive={false} />
        <Bar yAxisId="tickets" dataKey="ticketsResolved" name={t('reports.columns.ticketsResolved')} fill={theme.palette.success.main} radius={[4, 4, 0, 0]} maxBarSize={28} isAnimationActive={false} />
        <Line yAxisId="messages" type="linear" dataKey="messagesSent" name={t('reports.columns.messagesSent')} stroke={theme.palette.warning.main} strokeWidth={2} dot={rows.length <= 31} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
