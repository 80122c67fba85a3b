import type { MentionListResponse } from '@wadesk/contracts';
import { api } from '../../services/api';

/** The notes that named the signed-in user and that they have not opened yet (the bell after a reload). */
export async function fetchUnseenMentions(): Promise<MentionListResponse['mentions']> {
  return (await api.get<MentionListResponse>('/mentions')).data.mentions;
}

/** The user opened the ticket from a mention: its mentions of them are seen, in every browser. */
export async function markMentionsSeen(ticketId: number): Promise<void> {
  await api.post(`/tickets/${ticketId}/mentions/seen`);
}
