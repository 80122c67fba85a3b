import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ConversationTicketDto } from '@wadesk/contracts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { ticketSeparatorLabel } from './conversation-items';

export interface TicketSeparatorProps {
  ticketId: number;
  /** Where the ticket on screen begins; else an earlier ticket of the contact. */
  current: boolean;
  ticket?: ConversationTicketDto;
}

/** A rule across the chat with "Ticket #123 · resolved 12/11/2026 by Ana" (or "Ticket #130 (this ticket)") in it. */
export const TicketSeparator = memo(function TicketSeparator({ ticketId, current, ticket }: TicketSeparatorProps) {
  const { t } = useTranslation();
  const color = current ? '#008069' : '#54656f';
  return (
    <Box
      data-testid="ticket-separator"
      data-ticket-id={ticketId}
      data-current={current ? 'true' : 'false'}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        px: { xs: 2, sm: 4 },
        pt: 2,
        pb: 1,
        '&::before, &::after': { content: '""', flex: 1, minWidth: 16, borderTop: `1px solid ${color}`, opacity: 0.35 },
      }}
    >
      <Typography variant="caption" sx={{ color, fontWeight: 600, textAlign: 'center', maxWidth: '80%' }}>
        {ticketSeparatorLabel(t, { ticketId, current, ticket })}
      </Typography>
    </Box>
  );
});
