import { toCsv, type MessageDto, type TicketDto } from '@wadesk/contracts';
import { formatDate, formatTime } from '../../services/dates';

/**
 * The loaded conversation as CSV (date, time, sender, message), written by the desk's one CSV writer: a message
 * a customer typed as `=HYPERLINK(...)` opens as text in a spreadsheet, in `,` and `;` locales alike. An internal
 * note's sender reads `<note> · <author>` (`noteLabel`, translated), so a note is never taken for a reply.
 */
export function chatCsv(ticket: TicketDto, messages: MessageDto[], me: string, noteLabel = 'Note'): string {
  const rows = messages.map((m) => {
    const from = m.private
      ? `${noteLabel} · ${m.sentBy?.name ?? me}`
      : m.fromMe
        ? me
        : (m.participantName ?? m.contact?.name ?? ticket.contact.name);
    const body = m.isDeleted ? '' : m.body || (m.mediaType ? `[${m.mediaType}]` : '');
    return [formatDate(m.createdAt), formatTime(m.createdAt), from, body];
  });
  return toCsv([['date', 'time', 'from', 'message'], ...rows]);
}
