import type { TicketEventDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../services/dates';

/** "Resolved by Ana", "Ana transferred to Bruno (Sales)", "Resolved automatically"… */
export function timelineText(t: TFunction, event: TicketEventDto): string {
  const actor = event.actor?.name ?? t('chat.timeline.someone');
  switch (event.kind) {
    case 'accepted':
      return t('chat.timeline.accepted', { actor });
    case 'transferred': {
      const user = event.toUser?.name;
      const queue = event.toQueue?.name;
      if (user && queue) return t('chat.timeline.transferredToUserAndQueue', { actor, user, queue });
      if (user) return t('chat.timeline.transferredToUser', { actor, user });
      return t('chat.timeline.transferredToQueue', { actor, queue: queue ?? '' });
    }
    case 'returned':
      return t('chat.timeline.returned', { actor });
    case 'resolved':
      return event.actor ? t('chat.timeline.resolved', { actor }) : t('chat.timeline.resolvedAutomatically');
    case 'reopened':
      return event.actor ? t('chat.timeline.reopened', { actor }) : t('chat.timeline.reopenedByContact');
    case 'botHandedOver':
      return t('chat.timeline.botHandedOver');
    case 'botFailed':
      return t('chat.timeline.botFailed', { error: event.error ?? '' });
    case 'callRejected':
      return t(event.video ? 'chat.timeline.videoCallRejected' : 'chat.timeline.callRejected');
    case 'assigned':
      return t('autoAssign.timeline', { user: event.toUser?.name ?? t('chat.timeline.someone') });
    default:
      return event.kind;
  }
}

/** One ticket event as a centered system line between the messages; `earlier`: of an earlier ticket, dimmed as history. */
export const TimelineEventLine = memo(function TimelineEventLine({ event, earlier = false }: { event: TicketEventDto; earlier?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'center', px: 2, py: 0.75, opacity: earlier ? 0.75 : undefined }}
      data-testid="timeline-event"
      data-kind={event.kind}
      data-earlier={earlier ? 'true' : undefined}
    >
      <Typography
        variant="caption"
        sx={{ bgcolor: '#e2f1fb', color: '#35556b', borderRadius: 2, px: 1.5, py: 0.25, textAlign: 'center', boxShadow: '0 1px 0.5px rgba(11,20,26,.1)' }}
      >
        {timelineText(t, event)} · {formatTime(event.createdAt)}
      </Typography>
    </Box>
  );
});
