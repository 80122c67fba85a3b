import type { TicketDto } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { redactUrl } from '../../http/logger.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { TicketEventsRepository } from '../tickets/ticket-events.repository.js';
import type { Clock } from '../tickets/tickets.service.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { ChatbotSessionsRepository, type ChatbotSession, type ChatbotSessionWrite } from './chatbot-sessions.repository.js';
import { TypebotClient, TypebotError, type BotTurn } from './typebot-client.js';

export interface ChatbotOptions {
  clock?: Clock;
  /** How long one Typebot request may take. */
  timeoutMs: number;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

interface BotConfig {
  url: string;
  name: string;
  restart: string;
  off: string;
  /** Minutes without an exchange after which a handed-over or ended conversation may be taken again; 0: never. */
  minutes: number;
}

/** What the inbound pipeline does when the bot does not answer a message: what it would do with the bot off. */
export type Fallback = () => Promise<void>;

const normal = (text: string) => text.trim().toLowerCase();

/**
 * The Typebot chatbot (issue 15, decision 0017). The inbound pipeline asks `takes` after a message is stored and
 * announced; when it does, `answer` runs the exchange detached (a message's acknowledgement never waits for
 * Typebot), one at a time per ticket, and the queue menu does not run for that message. Whenever the bot does not
 * answer (hand-over keyword, flow ended, Typebot down or in error), the fallback runs: the ticket goes on as if the
 * bot were off.
 */
export class ChatbotService {
  private readonly client: TypebotClient;
  private readonly clock: Clock;
  /** The exchange under way per ticket: the next message of the ticket waits for it. */
  private readonly chains = new Map<number, Promise<void>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly settings: SettingsService,
    private readonly messages: MessagesService,
    private readonly options: ChatbotOptions,
  ) {
    this.client = new TypebotClient({ timeoutMs: options.timeoutMs });
    this.clock = options.clock ?? (() => new Date());
    // An attendant accepting (or being given) the ticket stops the bot. Only a change of hands is looked at: the
    // updates every message makes (no `previous`) cost nothing here.
    this.unsubscribe = events.on('ticket.updated', ({ ticket, previous }) => {
      if (previous && ticket.userId !== null && previous.userId !== ticket.userId) void this.stop(ticket.id);
    });
  }

  /** Stops listening (app shutdown) and waits for the exchanges under way. */
  async close(): Promise<void> {
    this.unsubscribe();
    await this.idle();
  }

  /** Resolves when no exchange is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  /**
   * Whether the bot answers this message of a ticket: the bot is on and configured, the ticket is a pending 1:1
   * ticket without attendant, and its conversation is active (or new, or quiet for typebotTime minutes after a
   * hand-over or the flow's end, or the contact typed typebotRestart). Resolves false rather than failing.
   * `typebot`: the setting's value when the caller has just read it (the inbound lookup does), so that the bot off
   * costs no read at all.
   */
  async takes(ticket: TicketDto, body = '', typebot?: string): Promise<boolean> {
    if (ticket.status !== 'pending' || ticket.userId !== null || ticket.isGroup) return false;
    if (typebot !== undefined && typebot !== 'enabled') return false;
    try {
      const config = await this.config();
      if (!config) return false;
      const row = await this.row(ticket.id);
      const restart = config.restart !== '' && normal(body) === normal(config.restart);
      return !row || row.state === 'active' || restart || this.quietLongEnough(row, config);
    } catch (err) {
      this.options.log.error({ err, ticketId: ticket.id }, 'chatbot: could not decide whether to answer');
      return false;
    }
  }

  /** Runs the exchange for a contact's message, detached and after the ticket's previous one; never rejects. */
  answer(ticket: TicketDto, body: string, fallback: Fallback): void {
    const previous = this.chains.get(ticket.id) ?? Promise.resolve();
    const next = previous
      .then(() => this.exchange(ticket, body, fallback))
      .catch((err: unknown) => this.options.log.error({ err, ticketId: ticket.id }, 'chatbot: exchange failed'))
      .finally(() => {
        if (this.chains.get(ticket.id) === next) this.chains.delete(ticket.id);
      });
    this.chains.set(ticket.id, next);
  }

  private async exchange(ticket: TicketDto, body: string, fallback: Fallback): Promise<void> {
    const config = await this.config();
    const current = await new TicketsRepository(this.db).findDto(ticket.id);
    // Taken by an attendant, resolved or turned off since the message came: the bot stays quiet.
    if (!config || !current || current.status !== 'pending' || current.userId !== null) return;
    const row = await this.row(ticket.id);
    const text = normal(body);
    if (config.off && text === normal(config.off)) {
      await this.save(ticket.id, { state: 'handedOver', sessionId: row?.sessionId ?? null, choices: null, lastError: null });
      await new TicketEventsRepository(this.db).insert([{ ticketId: ticket.id, kind: 'botHandedOver', actorUserId: null, createdAt: this.clock() }]);
      await fallback();
      return;
    }
    let turn: BotTurn;
    try {
      const fresh =
        !row?.sessionId || row.state !== 'active' || (config.restart !== '' && text === normal(config.restart)) || this.quietLongEnough(row, config);
      if (fresh) {
        turn = await this.client.start(config.url, config.name, { name: current.contact.name, number: current.contact.number });
      } else if (!body.trim()) {
        // A photo or a sticker without text while the flow waits for an answer: nothing to answer with.
        return;
      } else {
        const choice = /^\s*(\d{1,3})\s*$/.exec(body);
        const picked = choice && row.choices ? row.choices[Number(choice[1]) - 1] : undefined;
        try {
          turn = await this.client.continue(config.url, row.sessionId!, picked ?? body);
        } catch (err) {
          // Typebot forgot the session (expired, deleted): start the flow again.
          if (!(err instanceof TypebotError) || err.status !== 404) throw err;
          turn = await this.client.start(config.url, config.name, { name: current.contact.name, number: current.contact.number });
        }
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.options.log.error({ err, ticketId: ticket.id, typebotUrl: redactUrl(config.url), typebotName: config.name }, `chatbot: ${message}`);
      await this.save(ticket.id, { state: row?.state ?? 'active', sessionId: row?.sessionId ?? null, choices: row?.choices ?? null, lastError: message });
      await new TicketEventsRepository(this.db).insert([{ ticketId: ticket.id, kind: 'botFailed', actorUserId: null, error: message, createdAt: this.clock() }]);
      await fallback();
      return;
    }
    // An attendant may have taken the ticket while Typebot answered: the bot then stays stopped and says nothing.
    const after = await new TicketsRepository(this.db).findDto(ticket.id);
    const taken = !after || after.userId !== null || after.status !== 'pending';
    const state = taken ? 'stopped' : turn.waitsForInput ? 'active' : 'ended';
    await this.save(ticket.id, { state, sessionId: turn.sessionId, choices: turn.choices, lastError: null });
    if (!taken) await this.say(ticket.id, turn);
  }

  /** Sends the bot's bubbles in order, each stored as a bot message; stops if an attendant takes the ticket. */
  private async say(ticketId: number, turn: BotTurn): Promise<void> {
    for (const output of turn.outputs) {
      const ticket = await new TicketsRepository(this.db).findDto(ticketId);
      if (!ticket || ticket.userId !== null || ticket.status !== 'pending') return;
      try {
        if (output.kind === 'text') {
          await this.messages.sendText(ticket, { body: output.text, bot: true });
        } else {
          try {
            await this.messages.sendMediaFromUrl(ticket, { url: output.url, bot: true });
          } catch (err) {
            // A file that cannot be fetched still reaches the contact as its link.
            this.options.log.warn({ err, ticketId, url: output.url }, 'chatbot: media not sent as a file; sent as a link');
            await this.messages.sendText(ticket, { body: output.url, bot: true });
          }
        }
      } catch (err) {
        this.options.log.warn({ err, ticketId }, 'chatbot: a reply was not sent');
      }
    }
  }

  private async config(): Promise<BotConfig | null> {
    // The bot off (the usual case) costs one read.
    if ((await this.settings.value('typebot')) !== 'enabled') return null;
    const [url, name, restart, off, time] = await Promise.all(
      (['typebotUrl', 'typebotName', 'typebotRestart', 'typebotOff', 'typebotTime'] as const).map((k) => this.settings.value(k)),
    );
    if (!url?.trim() || !name?.trim()) return null;
    return { url: url.trim(), name: name.trim(), restart: restart ?? '', off: off ?? '', minutes: Number(time) || 0 };
  }

  private quietLongEnough(row: ChatbotSession, config: BotConfig): boolean {
    return config.minutes > 0 && this.clock().getTime() - row.lastExchangeAt.getTime() >= config.minutes * 60_000;
  }

  private row(ticketId: number): Promise<ChatbotSession | null> {
    return new ChatbotSessionsRepository(this.db).find(ticketId);
  }

  private async save(ticketId: number, values: ChatbotSessionWrite): Promise<void> {
    await new ChatbotSessionsRepository(this.db).save(ticketId, values, this.clock());
  }

  private async stop(ticketId: number): Promise<void> {
    try {
      await new ChatbotSessionsRepository(this.db).stopActive(ticketId);
    } catch (err) {
      this.options.log.warn({ err, ticketId }, 'chatbot: could not record that an attendant took the ticket');
    }
  }
}
