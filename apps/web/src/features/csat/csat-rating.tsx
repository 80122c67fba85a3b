import type { TicketCsatDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Rating from '@mui/material/Rating';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../services/dates';

/**
 * The contact's satisfaction rating of a ticket (issue 36 §5): stars, and in full (the contact panel) the time and the
 * comment. Nothing while unrated.
 */
export function CsatRating({ csat, full = false, testId = 'csat-rating' }: { csat: TicketCsatDto | null; full?: boolean; testId?: string }) {
  const { t } = useTranslation();
  if (!csat) return null;
  const label = t('csat.ratingLabel', { rating: csat.rating });
  const stars = <Rating value={csat.rating} max={5} readOnly size="small" aria-label={label} sx={{ fontSize: full ? 20 : 14 }} />;
  if (!full) {
    return (
      <Box component="span" data-testid={testId} data-rating={csat.rating} title={csat.comment ? `${label}: ${csat.comment}` : label} sx={{ display: 'inline-flex', flexShrink: 0 }} role="img" aria-label={label}>
        {stars}
      </Box>
    );
  }
  return (
    <Box data-testid={testId} data-rating={csat.rating}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        {stars}
        <Typography variant="body2">{label}</Typography>
        <Typography variant="caption" color="text.secondary">
          {formatDateTime(csat.at, 'dateTime')}
        </Typography>
      </Box>
      {csat.comment && (
        <Typography variant="body2" sx={{ mt: 0.5, fontStyle: 'italic', overflowWrap: 'anywhere' }} data-testid={`${testId}-comment`}>
          “{csat.comment}”
        </Typography>
      )}
    </Box>
  );
}
