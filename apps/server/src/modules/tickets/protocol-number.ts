/**
 * The protocol number of a ticket resolved with Protocolo (§4: "built from the current time in seconds"), followed by
 * the ticket's whole id, at least four digits: two tickets resolved in the same second differ, and the seconds (ten
 * digits until the year 2286) always end at the same place, so the number reads back as time and ticket
 * (decision 0030).
 */
export function protocolNumber(at: Date, ticketId: number): string {
  return `${Math.floor(at.getTime() / 1000)}${String(ticketId).padStart(4, '0')}`;
}
