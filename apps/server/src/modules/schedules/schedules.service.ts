import { otherProcessRetryMs } from '../../jobs/other-process.js';
import {
  isAdmin,
  normalizeWhatsappNumber,
  SCHEDULE_LATE_AFTER_MS,
  SCHEDULE_PAGE_SIZE,
  type MessageDto,
  type ScheduleData,
  type ScheduleDto,
  type ScheduleListResponse,
  type ScheduleSendJob,
  type ScheduleStatus,
  type ScheduleUpdateData,
  type SendSchedulesResponse,
  type TicketDto,
} from '@wadesk/contracts';
import { checkTemplateRule } from '../../channels/cloud-api/cloud-templates.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { NetworkTimeout, withTimeout } from '../../jobs/paced-steps.js';
import type { AuthUser } from '../auth/auth-user.js';
import { ContactsInboundRepository } from '../contacts/contacts-inbound.repository.js';
import { ContactsRepository } from '../contacts/contacts.repository.js';
import type { MessagesService } from '../messages/messages.service.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { conversationTicket } from '../messages/conversation-record.js';
import { serverTimeZone, type Clock, type TicketsService } from '../tickets/tickets.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { connectionOf } from '../whatsapp/connection-of.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import { SchedulesRepository, type ScheduleOutcome, type ScheduleRecord } from './schedules.repository.js';

/** Queues a `schedule.send` job, at `at` or at once (null); answers the job's id. */
export type ScheduleSender = (job: ScheduleSendJob, at: Date | null) => Promise<string>;

export interface SchedulesOptions {
  clock?: Clock;
  /** The time zone whose days `date` and `dataEnvio` name: the server's (TZ), as the dashboard's (decision 0007). */
  timeZone?: () => string;
  /** How long a due schedule waits for its connection to be CONNECTED before it fails with the reason. */
  connectionWaitMs: number;
  log: JobLog;
}

/** What one `schedule.send` job did (its output in `GET /api/jobs/:id`). */
export type DeliverResult =
  | { scheduleId: number; outcome: 'stale' | 'waiting' }
  | { scheduleId: number; outcome: 'sent'; messageId: number; ticketId: number; late: boolean }
  | { scheduleId: number; outcome: 'failed'; error: string };

/** While the connection is down here, a due schedule looks again this often (until connectionWaitMs). */
const CONNECTION_RETRY_MS = 3_000;
/** A send is bounded to a minute: a schedule still `sending` after this died with its process. */
const LOST_SEND_AFTER_MS = 3 * 60_000;
const NOT_FOUND = 'Scheduled message not found.';

/**
 * Scheduled messages (issue 14). A schedule is stored, then sent by a `schedule.send` job queued for its time
 * (pg-boss `startAfter`). The job re-reads the row: it sends only a schedule still `scheduled` at the version it was
 * queued for (an edit or a cancel moves the version, so an older job does nothing), and claims it `scheduled →
 * sending` in one statement before calling the network (decision 0014): two processes, a re-delivered job, the boot
 * sweep and DISPARAR may all try, one sends. The message goes into the contact's ticket like one an attendant typed:
 * the open or pending ticket is reused, else a new one is opened for the schedule's author.
 */
export class SchedulesService {
  private readonly clock: Clock;
  private readonly timeZone: () => string;
  private sendJob: ScheduleSender = async () => {
    throw new Error('scheduled messages are not wired to the job queue');
  };

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    private readonly tickets: TicketsService,
    private readonly messages: MessagesService,
    private readonly options: SchedulesOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.timeZone = options.timeZone ?? serverTimeZone;
  }

  private repo(): SchedulesRepository {
    return new SchedulesRepository(this.db);
  }

  useSender(send: ScheduleSender): void {
    this.sendJob = send;
  }

  /** Schedules a message to a contact (or a number) at `sendAt`, in the future; text or a file URL required. */
  async create(user: AuthUser, input: ScheduleData): Promise<ScheduleDto> {
    const hasContact = input.contactId !== undefined;
    const hasNumber = !!input.number;
    if (hasContact === hasNumber) {
      throw new AppError('ERR_SCHEDULE_RECIPIENT', hasContact ? 'Give a contactId or a number, not both.' : 'Give a contactId or a number.');
    }
    const template = input.template ?? null;
    // A template is the whole message: body and file are not sent with it.
    const body = template || input.body.trim() === '' ? '' : input.body;
    const mediaUrl = template ? null : input.mediaUrl || null;
    if (!template && !body && !mediaUrl) throw new AppError('ERR_SCHEDULE_EMPTY', 'Write a message (body) or give a file (mediaUrl).');
    const sendAt = this.futureTime(input.sendAt);
    let contactId: number | null;
    let number: string;
    if (input.contactId !== undefined) {
      const contact = await new ContactsRepository(this.db).findDto(input.contactId);
      if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found.');
      contactId = contact.id;
      number = contact.number;
    } else {
      const result = normalizeWhatsappNumber(input.number ?? '');
      if (!result.ok) throw new AppError('ERR_WAPP_INVALID_CONTACT', `number: not a valid WhatsApp number (${result.reason})`);
      number = result.number;
      contactId = (await new ContactsInboundRepository(this.db).findByNumber(number))?.id ?? null;
    }
    const whatsappId = await connectionOf(this.db, input.whatsappId);
    await checkTemplateRule(new WhatsappRepository(this.db), whatsappId, template);
    const record = await this.repo().insert({ whatsappId, contactId, number, userId: user.id, body, mediaUrl, template, sendAt }, this.clock());
    await this.queue(record);
    return this.announce(record.id, true);
  }

  /** An admin sees every schedule; an attendant their own. */
  async list(
    user: AuthUser,
    query: { status?: ScheduleStatus; date?: string; contactId?: number; pageNumber: number },
    /** The viewer's time zone, whose day `date` names (issue 32 §5); the server's when not given. */
    timeZone: string = this.timeZone(),
  ): Promise<ScheduleListResponse> {
    const { pageNumber, ...filter } = query;
    return this.repo().list({ ...filter, timeZone, userId: isAdmin(user) ? undefined : user.id }, pageNumber, SCHEDULE_PAGE_SIZE);
  }

  async get(user: AuthUser, id: number): Promise<ScheduleDto> {
    const schedule = await this.repo().findDto(id);
    if (!schedule || (!isAdmin(user) && schedule.userId !== user.id)) throw new AppError('ERR_NO_SCHEDULE_FOUND', NOT_FOUND);
    return schedule;
  }

  /** Changes a schedule still `scheduled`: its job for the old version will do nothing, a new one is queued. */
  async update(user: AuthUser, id: number, input: ScheduleUpdateData): Promise<ScheduleDto> {
    const current = await this.editable(user, id);
    const template = input.template === undefined ? current.template : input.template;
    const body = template ? '' : input.body === undefined ? current.body : input.body.trim() === '' ? '' : input.body;
    const mediaUrl = template ? null : input.mediaUrl === undefined ? current.mediaUrl : input.mediaUrl || null;
    if (!template && !body && !mediaUrl) throw new AppError('ERR_SCHEDULE_EMPTY', 'Write a message (body) or give a file (mediaUrl).');
    const sendAt = input.sendAt === undefined ? new Date(current.sendAt) : this.futureTime(input.sendAt);
    const whatsappId = input.whatsappId === undefined ? current.whatsappId : await connectionOf(this.db, input.whatsappId);
    await checkTemplateRule(new WhatsappRepository(this.db), whatsappId, template);
    const record = await this.repo().change(id, current.version, { body, mediaUrl, template, sendAt, whatsappId }, this.clock());
    if (!record) throw stateError();
    await this.queue(record);
    return this.announce(id, false);
  }

  /** Cancels a schedule still `scheduled` (kept, `cancelled`): its queued job finds it changed and sends nothing. */
  async cancel(user: AuthUser, id: number): Promise<ScheduleDto> {
    const current = await this.editable(user, id);
    if (!(await this.repo().change(id, current.version, { status: 'cancelled' }, this.clock()))) throw stateError();
    return this.announce(id, false);
  }

  /**
   * DISPARAR (`POST /api/sendAgendamento`): sends now every `scheduled` message of the day `date` (a day of the
   * caller's time zone, X-Time-Zone, issue 32 §5; the server's for a caller that sends none) on the connection (the
   * default one when absent).
   */
  async sendDay(date: string, whatsappId: number | undefined, timeZone: string = this.timeZone()): Promise<SendSchedulesResponse> {
    const connection = await connectionOf(this.db, whatsappId);
    const rows = await this.repo().waiting({ date, timeZone, whatsappId: connection });
    for (const row of rows) await this.sendJob({ scheduleId: row.id, version: row.version }, null);
    return { dataEnvio: date, whatsappId: connection, scheduleIds: rows.map((r) => r.id), count: rows.length };
  }

  /**
   * The boot sweep (and the watchdog's, every minute): a schedule left `sending` by a dead process becomes `failed`
   * (never sent twice); every `scheduled` one already due (the app was stopped at its time, or its job was lost) is
   * queued to be sent at once, and marked late when it goes out more than a minute after its time.
   */
  async sweep(): Promise<number> {
    const now = this.clock();
    for (const id of await this.repo().failLostSends(new Date(now.getTime() - LOST_SEND_AFTER_MS), now)) {
      this.options.log.warn({ scheduleId: id }, 'scheduled message left sending by a stopped process: failed, not sent again');
      await this.announce(id, false);
    }
    const due = await this.repo().due(now);
    for (const row of due) await this.sendJob({ scheduleId: row.id, version: row.version }, null);
    return due.length;
  }

  /** The `schedule.send` job: sends the schedule if it is still `scheduled` at the job's version. */
  async deliver(job: ScheduleSendJob): Promise<DeliverResult> {
    const { scheduleId, version } = job;
    const stale = { scheduleId, outcome: 'stale' } as const;
    const row = await this.repo().findRecord(scheduleId);
    if (!row || row.status !== 'scheduled' || row.version !== version) return stale;

    const state = this.sessions.status(row.whatsappId);
    if (state !== 'CONNECTED') {
      const since = job.waitingSince ? new Date(job.waitingSince) : this.clock();
      const stored = await new WhatsappRepository(this.db).findDto(row.whatsappId);
      // Another process runs a live connection: back to the queue, for its owner to take.
      const elsewhere = state === null && stored?.status === 'CONNECTED';
      if (elsewhere || this.clock().getTime() - since.getTime() < this.options.connectionWaitMs) {
        const retryMs = state === null ? otherProcessRetryMs() : CONNECTION_RETRY_MS;
        await this.sendJob({ scheduleId, version, waitingSince: since.toISOString() }, new Date(Date.now() + retryMs));
        return { scheduleId, outcome: 'waiting' };
      }
      if (!(await this.repo().claim(scheduleId, version, this.clock()))) return stale;
      const error = `The connection ${stored?.name ?? row.whatsappId} is not connected (${stored?.status ?? state ?? 'unknown'}).`;
      await this.repo().finish(scheduleId, { status: 'failed', error }, this.clock());
      this.options.log.info({ scheduleId, error }, 'scheduled message failed');
      await this.announce(scheduleId, false);
      return { scheduleId, outcome: 'failed', error };
    }

    if (!(await this.repo().claim(scheduleId, version, this.clock()))) return stale;
    await this.announce(scheduleId, false);
    const outcome = await this.send(row);
    await this.repo().finish(scheduleId, outcome, this.clock());
    await this.announce(scheduleId, false);
    if (outcome.status === 'failed') {
      this.options.log.info({ scheduleId, error: outcome.error }, 'scheduled message failed');
      return { scheduleId, outcome: 'failed', error: outcome.error };
    }
    return { scheduleId, outcome: 'sent', messageId: outcome.messageId, ticketId: outcome.ticketId, late: outcome.late };
  }

  /** Sends a claimed schedule into its contact's ticket, bounded in time. */
  private async send(row: ScheduleRecord): Promise<ScheduleOutcome> {
    let ticket: TicketDto | null = null;
    try {
      const author = row.userId ? await new UsersRepository(this.db).findRecordById(row.userId) : null;
      const sentBy: AuthUser | null = author ? { id: author.id, name: author.name, email: author.email, profile: author.profile } : null;
      ticket = await this.ticketOf(row);
      const origin = { origin: 'schedule' as const, originId: row.id };
      const sending: Promise<MessageDto> = row.template
        ? this.messages.sendTemplate(ticket, { ...row.template, sentBy, ...origin })
        : row.mediaUrl
          ? this.messages.sendMediaFromUrl(ticket, { url: row.mediaUrl, caption: row.body || undefined, sentBy, ...origin })
          : this.messages.sendText(ticket, { body: row.body, sentBy, ...origin });
      const message = await withTimeout(sending);
      const sentAt = this.clock();
      return { status: 'sent', messageId: message.id, ticketId: ticket.id, sentAt, late: sentAt.getTime() - row.sendAt.getTime() > SCHEDULE_LATE_AFTER_MS };
    } catch (err) {
      const error =
        err instanceof NetworkTimeout
          ? `No answer from the network in time: it may have arrived, so it is not sent again (${err.message}).`
          : (err as Error).message || 'The send failed.';
      return { status: 'failed', error, ticketId: ticket?.id ?? null };
    }
  }

  /**
   * The ticket the message goes into: the contact's conversation on the connection (decision 0029), its open or
   * pending ticket, else its latest closed one, else a new closed one, so that a day of schedules fills nobody's
   * Inbox; the contact's answer reopens it. The contact is found or created by number.
   */
  private async ticketOf(row: ScheduleRecord): Promise<TicketDto> {
    const ticketId = await this.db.transaction(async (tx) => {
      const contactId = row.contactId ?? (await new ContactsInboundRepository(tx).findOrCreateByNumber(row.number, undefined, false)).id;
      return conversationTicket(tx, contactId, row.whatsappId, false);
    });
    const ticket = await new TicketsRepository(this.db).findDto(ticketId);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'The contact\'s ticket is gone.');
    return ticket;
  }

  private async editable(user: AuthUser, id: number): Promise<ScheduleRecord> {
    await this.get(user, id);
    const record = await this.repo().findRecord(id);
    if (!record) throw new AppError('ERR_NO_SCHEDULE_FOUND', NOT_FOUND);
    if (record.status !== 'scheduled') throw stateError();
    return record;
  }

  /** Queues the send job of this version at its time (at once when already due). */
  private async queue(record: ScheduleRecord): Promise<void> {
    const job = { scheduleId: record.id, version: record.version };
    await this.sendJob(job, record.sendAt.getTime() > Date.now() ? record.sendAt : null);
  }

  private futureTime(iso: string): Date {
    const at = new Date(iso);
    if (at.getTime() <= this.clock().getTime()) throw new AppError('ERR_SCHEDULE_IN_PAST', 'sendAt: must be in the future.');
    return at;
  }

  private async announce(id: number, created: boolean): Promise<ScheduleDto> {
    const schedule = await this.repo().findDto(id);
    if (!schedule) throw new AppError('ERR_NO_SCHEDULE_FOUND', NOT_FOUND);
    this.events.emit('schedule.saved', { schedule, created });
    return schedule;
  }
}

function stateError(): AppError {
  return new AppError('ERR_SCHEDULE_STATE', 'This message is no longer scheduled: it cannot be changed or cancelled.');
}
