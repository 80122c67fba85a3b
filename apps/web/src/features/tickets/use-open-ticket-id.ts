import { useParams } from 'react-router-dom';

/** The ticket open in the chat (/tickets/:ticketId), or undefined on /tickets. */
export function useOpenTicketId(): number | undefined {
  const { ticketId } = useParams();
  return ticketId && /^\d+$/.test(ticketId) ? Number(ticketId) : undefined;
}
