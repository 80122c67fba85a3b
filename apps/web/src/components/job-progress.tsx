import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The counts of a batch (bulk send, group action, outreach) that say how it ended. */
export interface JobOutcome {
  status: string;
  total: number;
  failed: number;
}

/** A finished batch where every recipient failed (issue 33 item 18): it reads "Failed" in red, never "Done". */
export function allFailed(job: JobOutcome): boolean {
  return job.status === 'done' && job.total > 0 && job.failed >= job.total;
}

/** A batch's status as a chip: its own label and colour, or "Failed" in red when every recipient failed. */
export function JobStatusChip({ job, label, color, testId }: { job: JobOutcome; label: string; color: ChipProps['color']; testId?: string }) {
  const { t } = useTranslation();
  const failed = allFailed(job);
  return (
    <Chip
      size="small"
      label={failed ? t('jobs.failed') : label}
      color={failed ? 'error' : color}
      data-testid={testId}
      data-outcome={failed ? 'failed' : job.status}
    />
  );
}

export interface JobProgressProps {
  done: number;
  total: number;
  /** Words under the bar (status, failures, next step). */
  caption?: string;
  testId?: string;
  /** Every recipient failed: the bar is red. */
  failed?: boolean;
}

/** Long work's progress, `done / total` with a bar: one component for every tool that runs as a job. */
export function JobProgress({ done, total, caption, testId, failed = false }: JobProgressProps) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, mb: 0.5 }}>
        <Typography variant="h4" component="p" data-testid={testId} sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {done} / {total}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {percent}%
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={failed ? 100 : percent}
        color={failed ? 'error' : 'primary'}
        aria-label={`${done} / ${total}`}
        data-outcome={failed ? 'failed' : undefined}
        sx={{ height: 8, borderRadius: 4 }}
      />
      {caption && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75 }}>
          {caption}
        </Typography>
      )}
    </Box>
  );
}
