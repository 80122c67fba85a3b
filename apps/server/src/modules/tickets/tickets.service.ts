import { dayOfInstant, isAdmin, PAGE_SIZE, type TicketDto, type TicketStatus } from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import { renderGreeting, ticketTemplateValues } from '../inbound/greeting-template.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { QueuesRepository } from '../queues/queues.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import { checkLabelIds, replaceTicketLabels } from '../labels/labels.service.js';
import { canSeeTicket, type Viewer } from './ticket-access.js';
import { TicketEventsRepository, type TicketEventWrite } from './ticket-events.repository.js';
import { protocolNumber } from './protocol-number.js';
import { transitionEvents } from './ticket-timeline.js';
import { TicketsRepository, type TicketListFilter, type TicketWrite } from './tickets.repository.js';

export interface TicketListQuery {
  searchParam: string;
  pageNumber: number;
  status?: TicketStatus;
  date?: string;
  /** The IANA time zone whose day `date` names: the viewer's (issue 32 §5), the server's when not given. */
  timeZone?: string;
  showAll: boolean;
  queueIds?: number[];
  withUnreadMessages: boolean;
  isGroup?: boolean;
  /** Tickets carrying any of these labels (issue 36 §2). */
  labelIds?: number[];
}

/** What the dashboard counts: the queues chosen on the page, in the viewer's time zone. */
export interface DashboardQuery {
  /** The queues to count; the caller's own queues when not given (all they may see when they have none). */
  queueIds?: number[];
  /** The viewer's IANA time zone: "today" and the hours are theirs (issue 32 §5). */
  timeZone?: string;
}

export interface TicketUpdate {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  /** The ticket's labels become these (issue 36 §2). */
  labelIds?: number[];
}

const ACTIVE_CONFLICT = 'tickets_one_active_per_contact';
/** Hour slots of the dashboard chart: 08:00 to 19:00. */
export const DASHBOARD_HOURS = Array.from({ length: 12 }, (_, i) => 8 + i);
/** Open tickets not updated for this long are closed. */
export const AUTO_CLOSE_AFTER_MS = 24 * 3600 * 1000;

/** "Now", injected so that tests set the time instead of depending on when they run. */
export type Clock = () => Date;

let serverZone: { tz: string | undefined; name: string } | undefined;

/**
 * The server's time zone (TZ), in which "today" and the dashboard's hours are counted. Read from the runtime once for
 * each value of TZ: building the Intl.DateTimeFormat that tells it cost ~60 µs on every list request of a client that
 * sends no zone (whaticket's, issue 35).
 */
export const serverTimeZone = (): string => {
  const tz = process.env.TZ;
  if (!serverZone || serverZone.tz !== tz) serverZone = { tz, name: Intl.DateTimeFormat().resolvedOptions().timeZone };
  return serverZone.name;
};

export class TicketsService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly messages: MessagesService,
    private readonly now: Clock = () => new Date(),
    private readonly settings: SettingsService | null = null,
  ) {}

  private repo(): TicketsRepository {
    return new TicketsRepository(this.db);
  }

  async viewer(user: AuthUser): Promise<Viewer> {
    return { user, queueIds: isAdmin(user) ? [] : await new UsersRepository(this.db).queueIdsOf(user.id) };
  }

  /** The filter a listing runs with: what the caller may see, narrowed by the query. */
  async listFilter(user: AuthUser, query: Omit<TicketListQuery, 'pageNumber'>): Promise<TicketListFilter> {
    const viewer = await this.viewer(user);
    const admin = isAdmin(user);
    const filter: TicketListFilter = {
      status: query.status,
      search: query.searchParam || undefined,
      date: query.date,
      timeZone: query.date ? (query.timeZone ?? serverTimeZone()) : undefined,
      withUnreadMessages: query.withUnreadMessages,
      isGroup: query.isGroup,
      labelIds: query.labelIds,
    };
    if (!admin) filter.visibleTo = { userId: user.id, queueIds: viewer.queueIds };
    if (query.queueIds) filter.queueIds = admin ? query.queueIds : query.queueIds.filter((id) => viewer.queueIds.includes(id));
    // showAll is honoured for admins only; without it, a listing shows the caller's tickets and pending ones.
    // A search looks everywhere the caller may see.
    if (!(admin && query.showAll) && !filter.search) filter.mineOrPendingOf = user.id;
    return filter;
  }

  /** A page of the tickets the caller may see, as the JSON text of its TicketPage (the reply's body). */
  async listJson(user: AuthUser, query: TicketListQuery): Promise<string> {
    const filter = await this.listFilter(user, query);
    return this.repo().listJson(filter, query.pageNumber, PAGE_SIZE.tickets);
  }

  /** A ticket the caller may see: ERR_NO_TICKET_FOUND when missing, ERR_NO_PERMISSION otherwise. */
  async get(user: AuthUser, id: number): Promise<TicketDto> {
    const ticket = await this.repo().findDto(id);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found');
    if (!canSeeTicket(await this.viewer(user), ticket)) throw new AppError('ERR_NO_PERMISSION');
    return ticket;
  }

  async loadMany(ids: number[]): Promise<TicketDto[]> {
    return this.repo().findDtos(ids);
  }

  /** Starts a ticket with a contact on the caller's (or the default) connection. */
  async create(user: AuthUser, input: { contactId: number; userId?: number | null; status?: TicketStatus; whatsappId?: number }): Promise<TicketDto> {
    const whatsapps = new WhatsappRepository(this.db);
    let whatsappId = input.whatsappId;
    if (!whatsappId) {
      const all = await whatsapps.list();
      whatsappId = all.find((w) => w.isDefault)?.id ?? all[0]?.id;
    }
    if (!whatsappId) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 'No default connection found.');
    const repo = this.repo();
    const active = await repo.findActive(input.contactId, whatsappId);
    // The contact's conversation is under way: the answer names its ticket, which the client may open instead.
    if (active) throw new AppError('ERR_OTHER_OPEN_TICKET', undefined, { ticketId: active });
    const status = input.status ?? 'open';
    let id: number;
    try {
      id = await repo.insert({
        contactId: input.contactId,
        whatsappId,
        status,
        userId: status === 'pending' ? null : (input.userId ?? user.id),
        isGroup: false,
      });
    } catch (err) {
      if (isUniqueViolation(err, ACTIVE_CONFLICT)) {
        throw new AppError('ERR_OTHER_OPEN_TICKET', undefined, { ticketId: (await repo.findActive(input.contactId, whatsappId)) ?? undefined });
      }
      if (isForeignKeyViolation(err)) {
        throw new AppError('ERR_NO_CONTACT_FOUND', 'Contact not found');
      }
      throw err;
    }
    const ticket = (await repo.findDto(id))!;
    this.events.emit('ticket.updated', { ticket });
    return ticket;
  }

  /**
   * Accept, return, resolve, reopen and transfer (§4). A queue without a user sends the ticket back to
   * pending; only admins change its connection.
   */
  async update(user: AuthUser, id: number, change: TicketUpdate): Promise<TicketDto> {
    const current = await this.get(user, id);
    const write: TicketWrite = {};
    if (change.whatsappId !== undefined && change.whatsappId !== current.whatsappId) {
      if (!isAdmin(user)) throw new AppError('ERR_NO_PERMISSION', 'Only admins change the connection of a ticket.');
      if (!(await new WhatsappRepository(this.db).findDto(change.whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
      write.whatsappId = change.whatsappId;
    }
    // A transfer names who and where: say which one is missing rather than a bare constraint error.
    if (change.userId && change.userId !== current.userId && !(await new UsersRepository(this.db).findRecordById(change.userId))) {
      throw new AppError('ERR_NO_USER_FOUND', 'The user to transfer to does not exist.');
    }
    if (change.queueId && change.queueId !== current.queueId && !(await new QueuesRepository(this.db).findDto(change.queueId))) {
      throw new AppError('ERR_NO_QUEUE_FOUND', 'The queue to transfer to does not exist.');
    }
    if (change.labelIds !== undefined) await checkLabelIds(this.db, change.labelIds);
    if (change.queueId !== undefined) write.queueId = change.queueId;
    if (change.userId !== undefined) write.userId = change.userId;
    if (change.status !== undefined) write.status = change.status;

    // To a queue without a user (a new queue, or its own queue with the user cleared on purpose): back to
    // waiting. An open ticket always has a user, so clearing it also sends the ticket back to waiting.
    const transferToQueueOnly =
      change.queueId !== undefined && !change.userId && (change.queueId !== current.queueId || change.userId === null);
    const unassigned = change.userId === null && current.status === 'open';
    if ((transferToQueueOnly || unassigned) && change.status === undefined) {
      write.status = 'pending';
      write.userId = null;
    } else if (change.status === 'open' && change.userId === undefined && (current.status !== 'open' || !current.userId)) {
      write.userId = user.id; // accept or reopen: the caller takes it
    } else if (change.status === 'pending' && change.userId === undefined) {
      write.userId = null; // return to the queue
    }

    try {
      // A waiting ticket nobody held when read, now taken (accepted, or given someone): only if it still waits, so that
      // automatic assignment (another process perhaps) or another accept in the meantime is not overwritten (issue 36 §4).
      const takes = current.status === 'pending' && current.userId === null && write.status === 'open';
      if (takes) {
        if (!(await this.repo().updateWaiting(id, write))) throw new AppError('ERR_TICKET_ALREADY_TAKEN');
      } else if (Object.keys(write).length > 0 || change.labelIds === undefined) {
        // Labels alone do not move the ticket up the lists: only a change of the ticket itself touches it.
        await this.repo().update(id, write);
      }
      const labelIds = change.labelIds;
      if (labelIds !== undefined) await this.db.transaction((tx) => replaceTicketLabels(tx, id, labelIds));
    } catch (err) {
      if (isUniqueViolation(err, ACTIVE_CONFLICT)) {
        const active = await this.repo().findActive(current.contactId, write.whatsappId ?? current.whatsappId);
        throw new AppError('ERR_OTHER_OPEN_TICKET', undefined, { ticketId: active ?? undefined });
      }
      if (isForeignKeyViolation(err)) {
        throw new AppError('ERR_VALIDATION', 'The user or queue given does not exist.');
      }
      throw err;
    }
    let ticket = (await this.repo().findDto(id))!;
    const transitions = transitionEvents(current, ticket, user.id);
    await new TicketEventsRepository(this.db).insert(transitions);
    this.events.emit('ticket.updated', { ticket, previous: { queueId: current.queueId, userId: current.userId, status: current.status } });
    const transfer = transitions.find((e) => e.kind === 'transferred');
    if (transfer?.toUser && ticket.status !== 'closed') {
      this.events.emit('ticket.transferred', { ticket, by: { id: user.id, name: user.name }, toUserId: transfer.toUser.id });
    }
    if (transfer && ticket.status !== 'closed') await this.sendTransferNotice(ticket, transfer, user);

    if (change.status === 'closed' && current.status !== 'closed') {
      await this.sendFarewell(ticket, user);
      ticket = (await this.repo().findDto(id))!;
      this.events.emit('ticket.closed', { ticket, by: user.name });
    }
    return ticket;
  }

  /**
   * The send API's /zdgProtocolo: a protocol number given from outside is recorded on the ticket.
   * ERR_NO_TICKET_FOUND when there is no such ticket.
   */
  async registerProtocol(id: number, protocol: string): Promise<TicketDto> {
    if ((await this.loadMany([id])).length === 0) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found.');
    await this.repo().update(id, { protocol });
    const [ticket] = await this.loadMany([id]);
    this.events.emit('ticket.updated', { ticket: ticket! });
    return ticket!;
  }

  /** Resolves with a protocol number (the current time in seconds and the ticket id, decision 0030) sent to the contact. */
  async resolveWithProtocol(user: AuthUser, id: number): Promise<{ protocol: string; ticket: TicketDto }> {
    const current = await this.get(user, id);
    const protocol = protocolNumber(this.now(), id);
    const template = this.settings ? await this.settings.value('protocolMessage') : '*Protocolo:* {{protocol}}';
    if (template.trim()) {
      const connection = await new WhatsappRepository(this.db).findDto(current.whatsappId);
      const values = ticketTemplateValues(current, connection?.name, { fallbackUser: user.name, now: this.now() });
      const body = renderGreeting(template.replace(/\{\{\s*protocol\s*\}\}/gi, protocol), values);
      await this.messages.sendText(current, { body, sentBy: user, auto: true }).catch(() => undefined);
    }
    await this.repo().update(id, { protocol });
    const ticket = await this.update(user, id, { status: 'closed' });
    return { protocol, ticket };
  }

  async delete(user: AuthUser, id: number): Promise<void> {
    if (!isAdmin(user)) throw new AppError('ERR_NO_PERMISSION');
    const ticket = await this.repo().findDto(id);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 'Ticket not found');
    await this.db.transaction(async (tx) => {
      await new TicketsRepository(tx).delete(id);
      await audit.record(tx, { action: 'ticket.delete', targetType: 'ticket', targetId: id, before: ticketAuditView(ticket) });
    });
    this.events.emit('ticket.deleted', { ticket });
  }

  /**
   * Close all: the open and pending tickets of the caller's view (the Inbox or Group tab, both lists), decided as
   * the ticket list decides them (`listFilter`): for an admin with Show all, all of them; otherwise the caller's own
   * open tickets and the pending tickets they may see (their queues' and those without a queue), never a colleague's
   * conversation in progress. Each closed ticket goes to those who see it as a `ticket` update (`tickets.changed`).
   */
  async closeAll(user: AuthUser, view: { showAll: boolean; queueIds?: number[]; labelIds?: number[]; isGroup?: boolean }): Promise<number> {
    const filter = await this.listFilter(user, { searchParam: '', withUnreadMessages: false, ...view });
    const ids = await this.db.transaction(async (tx) => {
      const closed = await new TicketsRepository(tx).closeAll(filter);
      await new TicketEventsRepository(tx).insert(closed.map((ticketId) => ({ ticketId, kind: 'resolved', actorUserId: user.id })));
      await audit.record(tx, { action: 'ticket.close_all', targetType: 'ticket', after: { closed: closed.length, ticketIds: closed.slice(0, 1000), view } });
      return closed;
    });
    if (ids.length > 0) this.events.emit('tickets.changed', { ticketIds: ids });
    return ids.length;
  }

  /**
   * Counters (open, pending, closed) and today's tickets per hour 08:00–19:00, for what the caller may see of the chosen
   * queues (by default the caller's own, §2: "a queue filter of the user's queues", admins too). "Today" and the hours
   * are those of the viewer's time zone at `now` (the server's when the caller sends none).
   */
  async dashboard(user: AuthUser, query: DashboardQuery = {}, now: Date = this.now()) {
    const own = await new UsersRepository(this.db).queueIdsOf(user.id);
    const queueIds = query.queueIds ?? (own.length > 0 ? own : undefined);
    const filter = await this.listFilter(user, { searchParam: '', showAll: true, withUnreadMessages: false, queueIds });
    const repo = this.repo();
    const timeZone = query.timeZone ?? serverTimeZone();
    const today = dayOfInstant(now, timeZone);
    const [start, end] = await repo.dayBounds(today, timeZone);
    const counts = await repo.countByStatus(filter);
    const perHour = await repo.createdPerHour(filter, start, end, timeZone);
    return {
      counts,
      ticketsPerHour: DASHBOARD_HOURS.map((hour) => ({ hour: `${String(hour).padStart(2, '0')}:00`, count: perHour.get(hour) ?? 0 })),
    };
  }

  /** Closes open tickets not updated for 24 hours. */
  async autoClose(now: Date = this.now()): Promise<number> {
    const ids = await this.repo().closeStale(new Date(now.getTime() - AUTO_CLOSE_AFTER_MS));
    // Closed by the desk: a resolved line without a name.
    await new TicketEventsRepository(this.db).insert(ids.map((ticketId) => ({ ticketId, kind: 'resolved', actorUserId: null })));
    if (ids.length > 0) this.events.emit('tickets.changed', { ticketIds: ids });
    return ids.length;
  }

  /**
   * The transfer notice (setting transferMessage, issue 15), after the transfer is committed: best effort (a
   * connection that is down does not undo the transfer). {{destination}} names the attendant, the queue, or both.
   */
  private async sendTransferNotice(ticket: TicketDto, transfer: TicketEventWrite, user: AuthUser): Promise<void> {
    if (!this.settings || ticket.isGroup) return;
    const template = (await this.settings.value('transferMessage')).trim();
    if (!template) return;
    const who = transfer.toUser?.name;
    const where = transfer.toQueue?.name;
    const destination = who && where ? `${who} (${where})` : (who ?? where ?? ticket.user?.name ?? ticket.queue?.name ?? '');
    const connection = await new WhatsappRepository(this.db).findDto(ticket.whatsappId);
    const values = ticketTemplateValues(ticket, connection?.name, { now: this.now() });
    const body = renderGreeting(template.replace(/\{\{\s*destination\s*\}\}/gi, destination), values);
    try {
      await this.messages.sendText(ticket, { body, sentBy: user, auto: true });
    } catch {
      // The transfer stands even when the notice cannot be sent.
    }
  }

  private async sendFarewell(ticket: TicketDto, user: AuthUser): Promise<void> {
    const connection = await new WhatsappRepository(this.db).findDto(ticket.whatsappId);
    const farewell = connection?.farewellMessage.trim();
    if (!farewell || ticket.isGroup) return;
    // The farewell takes the same placeholders as the greetings (§3): {{name}}, {{ticket_id}}, ...
    const body = renderGreeting(farewell, ticketTemplateValues(ticket, connection?.name, { fallbackUser: user.name, now: this.now() }));
    try {
      await this.messages.sendText(ticket, { body, sentBy: user, auto: true });
    } catch {
      // The ticket is resolved even when the connection is down; the farewell is best effort.
    }
  }
}

/** A deleted ticket as the audit log keeps it: who and where, not the whole conversation. */
function ticketAuditView(ticket: TicketDto): unknown {
  return {
    id: ticket.id,
    status: ticket.status,
    contact: { id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number },
    whatsappId: ticket.whatsappId,
    queueId: ticket.queueId,
    userId: ticket.userId,
    protocol: ticket.protocol,
    lastMessage: ticket.lastMessage,
    createdAt: ticket.createdAt,
  };
}
