import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';

export interface CounterCardProps {
  label: string;
  value: number | undefined;
  icon: ReactNode;
  /** Theme colour of the icon badge. */
  color: 'primary' | 'warning' | 'success';
  testId: string;
}

/** One dashboard counter: label, big number, icon. */
export function CounterCard({ label, value, icon, color, testId }: CounterCardProps) {
  const labelId = useId();
  return (
    <Paper
      variant="outlined"
      role="group"
      aria-labelledby={labelId}
      data-testid={testId}
      sx={{ p: { xs: 1.5, sm: 2.5 }, display: 'flex', alignItems: 'center', gap: 2, height: '100%' }}
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography id={labelId} variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
          {label}
        </Typography>
        {value === undefined ? (
          <Skeleton width={56} height={48} />
        ) : (
          <Typography variant="h4" component="p" sx={{ fontWeight: 600, fontSize: { xs: '1.75rem', sm: '2.125rem' } }} data-testid={`${testId}-value`}>
            {value}
          </Typography>
        )}
      </Box>
      <Box
        aria-hidden
        sx={{
          width: 48,
          height: 48,
          borderRadius: '50%',
          // Three counters share a phone's width: no room for the icon there.
          display: { xs: 'none', sm: 'grid' },
          placeItems: 'center',
          flexShrink: 0,
          color: `${color}.main`,
          bgcolor: (theme) => `color-mix(in srgb, ${theme.palette[color].main} 12%, transparent)`,
        }}
      >
        {icon}
      </Box>
    </Paper>
  );
}
