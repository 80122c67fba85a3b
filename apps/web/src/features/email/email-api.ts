import type { EmailSentResponse } from '@wadesk/contracts';
import { api } from '../../services/api';

/** The settings page's test e-mail (admins), with the saved settings. */
export async function sendTestEmail(to?: string): Promise<EmailSentResponse> {
  return (await api.post<EmailSentResponse>('/settings/email/test', to ? { to } : {})).data;
}

/** A ticket's conversation by e-mail, to `to` or the setting emailTo; its internal notes only with `includeNotes`. */
export async function emailTicket(ticketId: number, to?: string, includeNotes = false): Promise<EmailSentResponse> {
  return (await api.post<EmailSentResponse>(`/tickets/${ticketId}/email`, { ...(to ? { to } : {}), ...(includeNotes ? { includeNotes } : {}) })).data;
}
