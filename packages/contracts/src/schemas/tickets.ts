import type { ContactDto } from './contacts.js';
import type { QueueDto } from './queues.js';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const MEDIA_TYPES = ['image', 'audio', 'video', 'location', 'vcard', 'sticker', 'document', 'other'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface TicketDto {
  id: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  whatsappId: number;
  contactId: number;
  contact: ContactDto;
  queue: QueueDto | null;
  user: { id: number; name: string } | null;
  whatsapp: { id: number; name: string } | null;
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  protocol: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MessageDto {
  id: number;
  ticketId: number;
  body: string;
  fromMe: boolean;
  read: boolean;
  isDeleted: boolean;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  ack: number;
  quotedMsg: { id: number; fromMe: boolean; body: string; contact: { name: string } | null } | null;
  contact: { name: string } | null;
  participantName: string | null;
  createdAt: string;
}
