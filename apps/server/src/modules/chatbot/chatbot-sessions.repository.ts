import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { chatbotSessions } from '../../db/schema.js';

/** A ticket's conversation with the chatbot (decision 0017). */
export interface ChatbotSession {
  ticketId: number;
  /** Typebot's sessionId (null before the first answer). */
  sessionId: string | null;
  /** active: the bot answers; handedOver: the contact asked for a person; stopped: an attendant took the ticket. */
  state: string;
  /** The choices of the last choice input (the contact's number picks one), else null. */
  choices: string[] | null;
  lastExchangeAt: Date;
  lastError: string | null;
}

export type ChatbotSessionWrite = Pick<ChatbotSession, 'state' | 'sessionId' | 'choices' | 'lastError'>;

/** The only file that queries chatbot sessions. */
export class ChatbotSessionsRepository {
  constructor(private readonly db: Executor) {}

  async find(ticketId: number): Promise<ChatbotSession | null> {
    const [row] = await this.db
      .select({
        ticketId: chatbotSessions.ticketId,
        sessionId: chatbotSessions.sessionId,
        state: chatbotSessions.state,
        choices: chatbotSessions.choices,
        lastExchangeAt: chatbotSessions.lastExchangeAt,
        lastError: chatbotSessions.lastError,
      })
      .from(chatbotSessions)
      .where(eq(chatbotSessions.ticketId, ticketId));
    return row ?? null;
  }

  /** Stores the state after an exchange at `now` (created with the ticket's first one). */
  async save(ticketId: number, values: ChatbotSessionWrite, now: Date): Promise<void> {
    await this.db
      .insert(chatbotSessions)
      .values({ ticketId, ...values, lastExchangeAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: chatbotSessions.ticketId, set: { ...values, lastExchangeAt: now, updatedAt: now } });
  }

  /** An attendant took the ticket: an active session is stopped (a handed-over one stays as it is). */
  async stopActive(ticketId: number): Promise<void> {
    await this.db
      .update(chatbotSessions)
      .set({ state: 'stopped', updatedAt: sql`now()` })
      .where(sql`${chatbotSessions.ticketId} = ${ticketId} and ${chatbotSessions.state} = 'active'`);
  }
}
