import type { ScheduleDto, ScheduleStatus } from '@wadesk/contracts';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

const COLORS: Record<ScheduleStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  scheduled: 'info',
  sending: 'warning',
  sent: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** A schedule's status (with its reason when it failed), and "late" when it went out after its time. */
export function ScheduleStatusChip({ schedule, testId = 'schedule-status' }: { schedule: ScheduleDto; testId?: string }) {
  const { t } = useTranslation();
  const chip = (
    <Chip size="small" color={COLORS[schedule.status]} label={t(`schedules.status.${schedule.status}`)} data-testid={testId} />
  );
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      {schedule.error ? <Tooltip title={schedule.error}>{chip}</Tooltip> : chip}
      {schedule.late && (
        <Tooltip title={t('schedules.lateHelp')}>
          <Chip size="small" variant="outlined" color="warning" label={t('schedules.late')} data-testid="schedule-late" />
        </Tooltip>
      )}
    </Stack>
  );
}
