import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { messages, users } from '../../db/schema.js';

/** One message of a ticket as its e-mailed transcript shows it. */
export interface TranscriptMessage {
  body: string;
  fromMe: boolean;
  isDeleted: boolean;
  mediaType: string | null;
  mediaUrl: string | null;
  participantName: string | null;
  senderKind: string;
  origin: string | null;
  originId: number | null;
  /** The attendant who sent it, by name. */
  sentBy: string | null;
  /** An internal note (issue 36 §1): left out of a transcript unless asked for. */
  private: boolean;
  createdAt: Date;
}

/** What the e-mail module reads: a ticket's conversation for its transcript. */
export class EmailRepository {
  constructor(private readonly db: Executor) {}

  /** Every message of the ticket, oldest first, with the name of the attendant who sent it. */
  async transcript(ticketId: number): Promise<TranscriptMessage[]> {
    return this.db
      .select({
        body: messages.body,
        fromMe: messages.fromMe,
        isDeleted: messages.isDeleted,
        mediaType: messages.mediaType,
        mediaUrl: messages.mediaUrl,
        participantName: messages.participantName,
        senderKind: messages.senderKind,
        origin: messages.origin,
        originId: messages.originId,
        sentBy: users.name,
        private: messages.private,
        createdAt: messages.createdAt,
      })
      .from(messages)
      .leftJoin(users, eq(users.id, messages.sentByUserId))
      .where(eq(messages.ticketId, ticketId))
      .orderBy(asc(messages.createdAt), asc(messages.id));
  }
}
