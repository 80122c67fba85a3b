import NightsStayOutlinedIcon from '@mui/icons-material/NightsStayOutlined';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

/** "Out of hours" (issue 36 §3): the conversation arrived while its queue or connection was closed. */
export function OutOfHoursBadge({ show, compact = false }: { show: boolean; compact?: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <Box
      component="span"
      data-testid="out-of-hours-badge"
      title={t('businessHours.badgeTitle')}
      aria-label={t('businessHours.badge')}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        px: 0.75,
        borderRadius: 2,
        fontSize: 11,
        lineHeight: '16px',
        whiteSpace: 'nowrap',
        flexShrink: 0,
        color: 'warning.contrastText',
        bgcolor: 'warning.main',
      }}
    >
      <NightsStayOutlinedIcon sx={{ fontSize: 12 }} />
      {!compact && t('businessHours.badge')}
    </Box>
  );
}
