import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export function EmptyState({ icon, title, text, testId }: { icon?: ReactNode; title: string; text?: string; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 6 }, textAlign: 'center' }} data-testid={testId}>
      {icon && <Box sx={{ mb: 1, color: 'text.secondary' }}>{icon}</Box>}
      <Typography variant="h6" component="p" gutterBottom>
        {title}
      </Typography>
      {text && (
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      )}
    </Paper>
  );
}
