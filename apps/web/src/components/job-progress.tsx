import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

export interface JobProgressProps {
  done: number;
  total: number;
  /** Words under the bar (status, failures, next step). */
  caption?: string;
  testId?: string;
}

/** Long work's progress, `done / total` with a bar: one component for every tool that runs as a job. */
export function JobProgress({ done, total, caption, testId }: JobProgressProps) {
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
      <LinearProgress variant="determinate" value={percent} aria-label={`${done} / ${total}`} sx={{ height: 8, borderRadius: 4 }} />
      {caption && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75 }}>
          {caption}
        </Typography>
      )}
    </Box>
  );
}
