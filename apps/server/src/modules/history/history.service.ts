import {
  HISTORY_IMPORT_PAGE_SIZE,
  isAdmin,
  lastMessageOf,
  type DeviceHistorySummaryDto,
  type HistoryImportData,
  type HistoryImportDto,
  type HistoryImportListResponse,
  type HistoryImportStartedResponse,
  type MediaType,
} from '@wadesk/contracts';
import type { InboundKind, InboundMessage } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { newChain, withTimeout } from '../../jobs/paced-steps.js';
import type { MediaStorage } from '../../storage/media-storage.js';
import { ContactsInboundRepository } from '../contacts/contacts-inbound.repository.js';
import { MEDIA_TYPE_OF_KIND } from '../inbound/inbound.service.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { audit } from '../audit/audit.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Clock } from '../tickets/tickets.service.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { connectionOf } from '../whatsapp/connection-of.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';
import { HistoryRepository, type ChatOutcome, type DeviceHistoryRow, type DeviceHistoryWrite, type HistoryImportRecord } from './history.repository.js';

/** Queues a step of an import's chain, due at once or at `startAfter` (the `history.step` job, history.jobs.ts); answers the job's id. */
export type HistoryStepScheduler = (step: { historyImportId: number; chain: string; waits?: number }, startAfter?: Date) => Promise<string>;

/** What one step did: the job's output (`GET /api/jobs/:id`). */
export interface HistoryStepResult {
  historyImportId: number;
  outcome: 'stale' | 'done' | 'chat' | 'waiting';
  chat?: string;
  imported?: number;
  skipped?: number;
  chatsDone?: number;
  chatsTotal?: number;
}

export interface HistoryOptions {
  clock?: Clock;
  log: JobLog;
}

/** An active import whose next step is this late lost its job: the watchdog gives it a new chain. */
const STEP_GRACE_MS = 2 * 60_000;
const NOT_FOUND = 'History import not found.';
/** WhatsApp sends at most this many older messages for one on-demand request. */
const OLDER_HISTORY_BATCH = 50;
const OLDER_HISTORY_TIMEOUT_MS = 15_000;
/**
 * A chat with media to fetch, on a connection another process runs: the step goes back to the queue this soon, for
 * that process to take (only it can fetch the media), at most this many times (then imported without the media).
 */
const OWNER_RETRY_MS = 250;
export const MAX_OWNER_WAITS = 240;

/** A message's body and media as they are stored. */
interface PreparedMessage {
  row: DeviceHistoryRow;
  body: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
}

/** Thrown inside a chat's transaction to undo it when nothing of it was new after all (a concurrent import won). */
class NothingNew extends Error {}

/**
 * History import (/ZDGHistorico, issue 14). The history a device sends (on pairing; the simulator's seeded one) is
 * kept raw per connection (device_history). An import turns it into contacts, tickets and messages, one chat a step
 * (`history.step` jobs, the chain rules of decision 0014): the newest `limit` messages of each chat, with their
 * original times, directions and quotes, and their media when the device still has it. A message's network id is
 * stored once per connection, so importing twice (or a step run twice after a restart) adds nothing. Imported
 * messages are history: no unread count, greeting, queue menu, notification or chatbot.
 */
export class HistoryService {
  private readonly clock: Clock;
  private scheduleStep: HistoryStepScheduler = async () => {
    throw new Error('history steps are not wired to the job queue');
  };

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    private readonly media: MediaStorage,
    private readonly settings: SettingsService,
    private readonly options: HistoryOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
  }

  private repo(): HistoryRepository {
    return new HistoryRepository(this.db);
  }

  useScheduler(schedule: HistoryStepScheduler): void {
    this.scheduleStep = schedule;
  }

  /** The history listener: keeps what a device sent (once per network id), so it survives restarts. */
  async keepDeviceHistory(whatsappId: number, messages: InboundMessage[]): Promise<number> {
    const rows: DeviceHistoryWrite[] = messages.map((m) => ({
      whatsappId,
      networkId: m.id.slice(0, 200),
      chatId: m.chatId.slice(0, 100),
      isGroup: m.isGroup,
      fromMe: m.fromMe,
      body: m.kind === 'vcard' && m.vcard && !m.body ? m.vcard.vcard : m.body,
      timestamp: m.timestamp,
      mediaType: m.kind === 'text' ? null : m.kind,
      mediaUrl: m.media?.ref ?? null,
      mediaMimetype: m.media?.mimetype.slice(0, 200) ?? null,
      mediaFilename: m.media?.filename?.slice(0, 300) ?? null,
      mediaSeconds: m.media?.seconds ?? null,
      quotedId: m.quotedId?.slice(0, 200) ?? null,
      name: m.chatName?.slice(0, 200) ?? null,
      participantNumber: m.participant?.number.slice(0, 100) ?? null,
      participantName: m.participant?.name?.slice(0, 200) ?? null,
    }));
    return this.repo().storeDeviceHistory(rows);
  }

  /** What the device's history holds for a connection (the default one when none is named). */
  async deviceSummary(whatsappId: number | undefined): Promise<DeviceHistorySummaryDto> {
    return this.repo().deviceSummary(await connectionOf(this.db, whatsappId));
  }

  /** Stores an import and queues its first step now. */
  async start(userId: number | null, input: HistoryImportData): Promise<HistoryImportStartedResponse> {
    const whatsappId = await connectionOf(this.db, input.whatsappId);
    const chain = newChain();
    const at = this.clock();
    const contactNumber = input.contactNumber ?? null;
    // An import brings the device's conversations into the desk: audited with it (issue 37 §2).
    const id = await this.db.transaction(async (tx) => {
      const inserted = await new HistoryRepository(tx).insert({ whatsappId, userId, contactNumber, limit: input.limit, chain, nextRunAt: at });
      await audit.record(tx, { action: 'history.import', targetType: 'historyImport', targetId: inserted, after: { whatsappId, contactNumber, limit: input.limit } });
      return inserted;
    });
    const jobId = await this.scheduleStep({ historyImportId: id, chain });
    return { historyImport: await this.announce(id), jobId };
  }

  /** An admin sees every import; an attendant the ones they started (issue 32, as bulk sends). */
  async list(user: AuthUser, pageNumber: number): Promise<HistoryImportListResponse> {
    return this.repo().list(isAdmin(user) ? null : user.id, pageNumber, HISTORY_IMPORT_PAGE_SIZE);
  }

  async get(user: AuthUser, id: number): Promise<HistoryImportDto> {
    const found = await this.repo().findDto(id);
    if (!found || (!isAdmin(user) && found.userId !== user.id)) throw new AppError('ERR_NO_HISTORY_IMPORT_FOUND', NOT_FOUND);
    return found;
  }

  /** Stops an import: its pending step finds its chain changed and does nothing; what was imported stays. */
  async cancel(user: AuthUser, id: number): Promise<HistoryImportDto> {
    await this.get(user, id);
    const moved = await this.repo().transition(id, ['queued', 'running'], 'cancelled', { chain: newChain(), now: this.clock() });
    if (!moved) throw new AppError('ERR_HISTORY_IMPORT_STATE', 'This history import has already finished.');
    return this.announce(id);
  }

  /** One step: lists the chats first if need be, imports the next chat, queues the following step. */
  async step(historyImportId: number, chain: string, waits = 0): Promise<HistoryStepResult> {
    const stale: HistoryStepResult = { historyImportId, outcome: 'stale' };
    const record = await this.repo().findRecord(historyImportId);
    if (!record || record.chain !== chain || (record.status !== 'queued' && record.status !== 'running')) return stale;
    // A step in progress keeps its import's due time at its start: the watchdog leaves it alone for a while.
    if (!(await this.repo().setNextRun(historyImportId, chain, this.clock()))) return stale;

    let chats = record.chats;
    if (!chats) {
      const listed = await this.repo().deviceChats(record.whatsappId, record.contactNumber);
      const groups = await this.groupsAccepted();
      chats = listed.filter((c) => groups || !c.isGroup).map((c) => c.chatId);
      if (!(await this.repo().plan(historyImportId, chain, chats, listed.length - chats.length, this.clock()))) return stale;
    }
    const index = record.chatsDone;
    const chatId = chats[index];
    if (chatId === undefined) {
      await this.repo().finish(historyImportId, chain, this.clock());
      const done = await this.announce(historyImportId);
      return { historyImportId, outcome: 'done', chatsDone: done.chatsDone, chatsTotal: done.chatsTotal };
    }

    if (waits < MAX_OWNER_WAITS && this.sessions.status(record.whatsappId) === null && (await this.chatNeedsMedia(record, chatId))) {
      // Real time, not the clock: a pause of the job queue.
      const soon = new Date(Date.now() + OWNER_RETRY_MS);
      if (await this.repo().setNextRun(historyImportId, chain, this.clock())) await this.scheduleStep({ historyImportId, chain, waits: waits + 1 }, soon);
      return { historyImportId, outcome: 'waiting', chat: chatId };
    }

    let outcome: ChatOutcome;
    try {
      outcome = await this.importChat(record, chatId);
    } catch (err) {
      // pg-boss tries the step again (and the watchdog after it); meanwhile the page shows why it waits.
      await this.repo().setNextRun(historyImportId, chain, this.clock(), `Chat ${chatId}: ${(err as Error).message}`.slice(0, 500));
      await this.announce(historyImportId);
      throw err;
    }
    if (!(await this.repo().finishChat(historyImportId, chain, index, outcome, this.clock()))) return stale;
    if (index + 1 < chats.length) {
      if (await this.repo().setNextRun(historyImportId, chain, this.clock())) await this.scheduleStep({ historyImportId, chain });
    }
    const now = await this.announce(historyImportId);
    return {
      historyImportId,
      outcome: 'chat',
      chat: chatId,
      imported: outcome.imported,
      skipped: outcome.skipped,
      chatsDone: now.chatsDone,
      chatsTotal: now.chatsTotal,
    };
  }

  /** Gives every active import whose step is overdue (its job was lost with a process) a new chain. */
  async recoverOverdue(): Promise<number> {
    const overdue = await this.repo().overdue(this.clock(), STEP_GRACE_MS);
    for (const { id, status } of overdue) {
      const chain = newChain();
      const at = this.clock();
      if (await this.repo().transition(id, [status], status, { chain, now: at, nextRunAt: at })) {
        this.options.log.warn({ historyImportId: id }, 'history import step overdue: resumed with a new chain');
        await this.scheduleStep({ historyImportId: id, chain });
      }
    }
    return overdue.length;
  }

  /**
   * Imports the newest `limit` messages of one chat, in one transaction (a chat is imported whole or not at all):
   * into the contact's current ticket when there is one, else into the ticket that already holds this chat's
   * messages when that one is closed, else into a new closed ticket.
   */
  private async importChat(record: HistoryImportRecord, chatId: string): Promise<ChatOutcome> {
    const { whatsappId } = record;
    const rows = await this.repo().chatMessages(whatsappId, chatId, record.limit);
    const stored = await new MessagesRepository(this.db).findStoredChannelIds(
      whatsappId,
      rows.map((r) => r.networkId),
    );
    const fresh = rows.filter((r) => !stored.has(r.networkId));
    const olderRequested = rows.length < record.limit && (await this.requestOlder(rows[0], record.limit - rows.length));
    const nothing: ChatOutcome = { imported: 0, skipped: rows.length, ticketCreated: false, ticketJoined: false, olderRequested };
    if (fresh.length === 0) return nothing;

    // Slow work (media) before the transaction.
    const prepared: PreparedMessage[] = [];
    for (const row of fresh) prepared.push(await this.prepare(row));
    const newest = prepared[prepared.length - 1]!;
    const preview = lastMessageOf({ body: newest.body, mediaType: newest.mediaType, filename: newest.row.mediaFilename, duration: newest.row.mediaSeconds });
    const isGroup = rows.some((r) => r.isGroup);
    const name = [...rows].reverse().find((r) => r.name && (isGroup || !r.fromMe))?.name ?? undefined;
    // The ticket already holding this chat's newest stored message, when it is closed (an earlier import).
    const holder = [...stored.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];

    try {
      const result = await this.db.transaction(async (tx) => {
        // Old messages brought from the phone are not news to webhooks (their ticket's change is).
        await new WebhooksRepository(tx).quietMessageEvents();
        const contact = await new ContactsInboundRepository(tx).findOrCreateByNumber(chatId, name, isGroup);
        const tickets = new TicketsRepository(tx);
        const active = await tickets.findActive(contact.id, whatsappId);
        const existing = active ?? (holder?.ticketStatus === 'closed' ? holder.ticketId : null);
        const ticketId =
          existing ??
          (await tickets.insertImported({
            contactId: contact.id,
            whatsappId,
            isGroup,
            lastMessage: preview,
            createdAt: prepared[0]!.row.timestamp,
            updatedAt: newest.row.timestamp,
          }));
        const messages = new MessagesRepository(tx);
        let imported = 0;
        for (const p of prepared) {
          const { row } = p;
          const quotedMsgId = row.quotedId ? await messages.findIdByChannelId(whatsappId, row.quotedId) : null;
          const id = await messages.insertOnce({
            channelMessageId: row.networkId,
            whatsappId,
            ticketId,
            contactId: row.fromMe ? null : contact.id,
            body: p.body,
            fromMe: row.fromMe,
            read: true,
            mediaType: p.mediaType,
            mediaUrl: p.mediaUrl,
            ack: row.fromMe ? 1 : 0,
            quotedMsgId,
            participantName: row.isGroup && !row.fromMe ? (row.participantName ?? row.participantNumber) : null,
            senderKind: row.fromMe ? 'user' : 'contact',
            mediaDuration: p.mediaType === 'audio' ? row.mediaSeconds : null,
            createdAt: row.timestamp,
          });
          if (id !== null) imported += 1;
        }
        if (imported === 0) throw new NothingNew();
        if (existing) await tickets.touchWithImported(existing, preview, newest.row.timestamp);
        return { ticketId, imported, created: existing === null, joined: active !== null };
      });
      const ticket = await new TicketsRepository(this.db).findDto(result.ticketId);
      // The lists place the ticket by its own time; no message event, so no notification and no unread count.
      if (ticket) this.events.emit('ticket.updated', { ticket });
      return { imported: result.imported, skipped: rows.length - result.imported, ticketCreated: result.created, ticketJoined: result.joined, olderRequested };
    } catch (err) {
      if (err instanceof NothingNew) return nothing;
      throw err;
    }
  }

  /** Whether the messages of a chat still to import hold media to fetch from the device. */
  private async chatNeedsMedia(record: HistoryImportRecord, chatId: string): Promise<boolean> {
    const rows = (await this.repo().chatMessages(record.whatsappId, chatId, record.limit)).filter(
      (r) => r.mediaUrl && r.mediaType && r.mediaType !== 'location' && r.mediaType !== 'vcard',
    );
    if (rows.length === 0) return false;
    const stored = await new MessagesRepository(this.db).findStoredChannelIds(
      record.whatsappId,
      rows.map((r) => r.networkId),
    );
    return rows.some((r) => !stored.has(r.networkId));
  }

  /**
   * A chat with fewer messages than the limit: asks the phone for the older ones (at most 50 a request), from the
   * oldest one known. Best effort: they arrive later as history, for the next import. Whether it was asked.
   */
  private async requestOlder(oldest: DeviceHistoryRow | undefined, missing: number): Promise<boolean> {
    if (!oldest) return false;
    try {
      const driver = this.sessions.driver(oldest.whatsappId);
      if (!driver.requestOlderHistory) return false;
      const anchor = { chatId: oldest.chatId, isGroup: oldest.isGroup, id: oldest.networkId, fromMe: oldest.fromMe, timestamp: oldest.timestamp };
      await withTimeout(driver.requestOlderHistory(anchor, Math.min(missing, OLDER_HISTORY_BATCH)), OLDER_HISTORY_TIMEOUT_MS);
      return true;
    } catch (err) {
      this.options.log.info({ err, whatsappId: oldest.whatsappId, chat: oldest.chatId }, 'older history not requested');
      return false;
    }
  }

  /** A history message's stored body and media: the media fetched again through the connection, when it can be. */
  private async prepare(row: DeviceHistoryRow): Promise<PreparedMessage> {
    const kind = (row.mediaType ?? 'text') as InboundKind;
    const mediaType = MEDIA_TYPE_OF_KIND[kind] ?? null;
    let mediaUrl: string | null = null;
    let body = row.body;
    if (row.mediaUrl && mediaType && mediaType !== 'location' && mediaType !== 'vcard') {
      try {
        const driver = this.sessions.driver(row.whatsappId);
        if (!driver.downloadHistoryMedia) throw new Error('this connection does not offer history media');
        const data = await driver.downloadHistoryMedia(row.mediaUrl);
        mediaUrl = this.media.url(await this.media.save(data, row.mediaMimetype ?? 'application/octet-stream', row.mediaFilename ?? undefined));
        if (!body && row.mediaFilename && kind === 'document') body = row.mediaFilename;
      } catch (err) {
        this.options.log.warn({ err, whatsappId: row.whatsappId, messageId: row.networkId }, 'history media not available; message imported without it');
      }
    }
    return { row, body, mediaType, mediaUrl };
  }

  private async groupsAccepted(): Promise<boolean> {
    const [groups, ignoreGroups] = await Promise.all([this.settings.value('groups'), this.settings.value('CheckMsgIsGroup')]);
    return groups !== 'disabled' && ignoreGroups !== 'enabled';
  }

  private async announce(id: number): Promise<HistoryImportDto> {
    const found = await this.repo().findDto(id);
    if (!found) throw new AppError('ERR_NO_HISTORY_IMPORT_FOUND', NOT_FOUND);
    this.events.emit('historyImport.updated', { historyImport: found });
    return found;
  }
}
