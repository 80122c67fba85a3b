import { otherProcessRetryMs } from '../../jobs/other-process.js';
import {
  CAMPAIGN_PAGE_SIZE,
  MAX_CAMPAIGN_NUMBERS,
  MEDIA_FOLDER_LIST_MAX,
  normalizeWhatsappNumber,
  NUMBER_PROBLEM_MESSAGES,
  parseNumberLines,
  toCsv,
  type BulkMediaFolderDto,
  type CampaignCreatedResponse,
  type CampaignData,
  type CampaignDto,
  type CampaignListResponse,
  type CampaignRecipientDto,
  type CampaignRecipientListResponse,
  type CampaignStatus,
  type MediaType,
  type MessageTemplate,
  type NumberProblem,
} from '@wadesk/contracts';
import type { ChannelDriver, OutboundMedia, SentMessage } from '../../channels/channel-driver.js';
import { CloudApiDriver } from '../../channels/cloud-api/cloud-api-driver.js';
import { approvedTemplate, checkTemplateRule, renderTemplate, sendTemplateTo } from '../../channels/cloud-api/cloud-templates.js';
import { MIME_BY_EXTENSION, mediaTypeOf } from '../../storage/media-storage.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database, Executor } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { NETWORK_TIMEOUT_MS, NetworkTimeout, newChain, withTimeout } from '../../jobs/paced-steps.js';
import { connectionOf } from '../whatsapp/connection-of.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Clock } from '../tickets/tickets.service.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import type { BulkMediaFolder } from './bulk-media-folder.js';
import { BULK_MEDIA_MAX_BYTES, CampaignMediaError, type CampaignMedia } from './campaign-media.js';
import { CampaignsRepository, type CampaignRecord, type RecipientOutcome } from './campaigns.repository.js';
import { ConversationRecord } from '../messages/conversation-record.js';

/** Queues the next step of a campaign's chain (the `campaign.step` job, campaigns.jobs.ts); answers the job's id. */
export type StepScheduler = (step: { campaignId: number; chain: string }, at: Date) => Promise<string>;

/** What one step did: the job's output (`GET /api/jobs/:id`). */
export type StepResult =
  | { outcome: 'stale' | 'done' | 'waiting' | 'paused'; error?: string }
  | { outcome: 'sent' | 'failed' | 'unknown'; line: number; number: string; error?: string };

/** One message to one number or group, from the send API: a campaign of one recipient, sent at once. */
export interface SingleSend {
  whatsappId?: number;
  /** Digits, `digits@c.us` or a group `id@g.us`. */
  to: string;
  kind: CampaignData['kind'];
  message?: string;
  url?: string;
  title?: string;
  /** An approved template instead of `message` (a cloud-api connection only; issue 18). */
  template?: CampaignData['template'];
}

export interface CampaignsOptions {
  clock?: Clock;
  /** A number in [0, 1) (tests may fix the pauses). */
  random?: () => number;
  /** The bulk media folder of mediaPath campaigns (setting bulkMediaFolder, DATA_DIR/bulk-media by default). */
  bulkMediaFolder: BulkMediaFolder;
  log: JobLog;
}

/** A queued or running campaign whose next step is this late lost its job: the watchdog gives it a new chain. */
export const STEP_GRACE_MS = 2 * 60_000;
/** While the connection is down, a running campaign looks again this often (it stays running). */
const CONNECTION_RETRY_MS = 15_000;

const NOT_FOUND = 'Campaign not found.';

const REASON_TEXT: Record<NumberProblem, string> = NUMBER_PROBLEM_MESSAGES;

/**
 * Bulk sends (issue 12). A campaign's recipients are sent one at a time by a chain of `campaign.step` jobs: each
 * step claims the next recipient (marked `sending` before the network call, `sent` with the network id after),
 * then queues the following step after the random pauses. Exactly-once rules: docs/decisions/0014.
 */
export class CampaignsService {
  private readonly clock: Clock;
  private readonly random: () => number;
  private scheduleStep: StepScheduler = async () => {
    throw new Error('campaign steps are not wired to the job queue');
  };
  private ticker: NodeJS.Timeout | null = null;
  /** When this process last announced each campaign: the once-a-second progress skips those just announced. */
  private readonly announcedAt = new Map<number, number>();
  /** Where sent messages are recorded: the recipients' conversations (decision 0029). */
  private readonly conversations: ConversationRecord;
  /** A template campaign's text as the contacts read it, by campaign. */
  private readonly templateTexts = new Map<number, string>();

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    private readonly media: CampaignMedia,
    private readonly options: CampaignsOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.conversations = new ConversationRecord(db, events);
    // A connection taken over from a dead process: its campaigns go on now, not when the watchdog finds them late.
    sessions.onTakeover((whatsappId) => {
      this.resumeOn(whatsappId).catch((err: unknown) => this.options.log.warn({ err, whatsappId }, 'resuming campaigns after a takeover failed'));
    });
  }

  private repo(): CampaignsRepository {
    return new CampaignsRepository(this.db);
  }

  /** Wires the steps to the job queue (campaigns.jobs.ts). */
  useScheduler(schedule: StepScheduler): void {
    this.scheduleStep = schedule;
  }

  async create(user: AuthUser, data: CampaignData): Promise<CampaignCreatedResponse> {
    const whatsappId = await connectionOf(this.db, data.whatsappId);
    const { numbers, invalid } = parseNumberLines(data.numbers);
    if (numbers.length + invalid.length > MAX_CAMPAIGN_NUMBERS) {
      throw validation('numbers', `At most ${MAX_CAMPAIGN_NUMBERS} lines`);
    }
    if (numbers.length === 0) throw validation('numbers', 'No line holds a valid number');
    await checkTemplateRule(new WhatsappRepository(this.db), whatsappId, data.template);
    if (data.kind === 'mediaPath') await this.options.bulkMediaFolder.checkFile(data.path ?? '', BULK_MEDIA_MAX_BYTES);
    if ((data.kind === 'mediaUrl' || data.kind === 'audio') && data.url) await this.media.checkUrl(data.url);
    const recipients = [
      ...numbers.map((n) => ({ line: n.line, number: n.number, status: 'pending' as const, error: null })),
      ...invalid.map((i) => ({ line: i.line, number: i.text, status: 'invalid' as const, error: REASON_TEXT[i.reason] })),
    ].sort((a, b) => a.line - b.line);
    const { id } = await this.store(user.id, 'campaign', whatsappId, data, recipients, true);
    return { id, total: numbers.length, invalid: invalid.map((i) => ({ line: i.line, reason: i.reason })) };
  }

  /**
   * The send API's calls (/zdg, /sendMedia…): one recipient, no pause, through the same steps as a campaign (so
   * it is durable and sent once). ERR_WAPP_INVALID_CONTACT when `to` is neither a number nor a group id.
   */
  async sendOne(input: SingleSend): Promise<{ campaignId: number; jobId: string }> {
    const whatsappId = await connectionOf(this.db, input.whatsappId);
    const to = recipientOf(input.to);
    // Free-form is allowed (inside the 24-hour window Meta takes it; outside it the send fails with
    // ERR_CLOUD_API_WINDOW_CLOSED): only a template given on another channel is refused.
    if (input.template) await checkTemplateRule(new WhatsappRepository(this.db), whatsappId, input.template);
    const data: CampaignData = { ...input, whatsappId, numbers: to, minInterval: 0, maxInterval: 0 };
    const { id, jobId } = await this.store(null, 'api', whatsappId, data, [{ line: 1, number: to, status: 'pending', error: null }]);
    return { campaignId: id, jobId };
  }

  private async store(
    userId: number | null,
    origin: 'campaign' | 'api',
    whatsappId: number,
    data: CampaignData,
    recipients: { line: number; number: string; status: 'pending' | 'invalid'; error: string | null }[],
    audited = false,
  ): Promise<{ id: number; jobId: string }> {
    const chain = newChain();
    // A bulk send is recorded with its campaign (the send API's single sends are recorded as api_token.use).
    const recordCreation = async (tx: Executor, id: number) => {
      const { numbers: _numbers, ...settings } = data;
      await audit.record(tx, {
        action: 'campaign.create',
        targetType: 'campaign',
        targetId: id,
        after: { ...settings, whatsappId, recipients: recipients.filter((r) => r.status === 'pending').length, invalid: recipients.filter((r) => r.status === 'invalid').length },
      });
    };
    const id = await this.repo().insert(
      {
        kind: data.kind,
        whatsappId,
        userId,
        origin,
        message: data.kind === 'text' && !data.template ? (data.message ?? null) : null,
        url: data.kind === 'mediaUrl' || data.kind === 'audio' ? (data.url ?? null) : null,
        title: data.kind === 'mediaUrl' || data.kind === 'mediaPath' ? (data.title ?? null) : null,
        path: data.kind === 'mediaPath' ? (data.path ?? null) : null,
        minInterval: data.minInterval,
        maxInterval: data.maxInterval,
        template: data.template ?? null,
        chain,
      },
      recipients,
      audited ? recordCreation : undefined,
    );
    const first = this.after(this.pauseMs(data));
    await this.repo().setNextSend(id, chain, first);
    const jobId = await this.scheduleStep({ campaignId: id, chain }, first);
    await this.announce(id);
    return { id, jobId };
  }

  /** Where /ZDGMedia2's files must be: its label for everyone, its absolute path for admins only. */
  async mediaFolder(user: AuthUser): Promise<BulkMediaFolderDto> {
    const folder = this.options.bulkMediaFolder;
    const files = await folder.files(MEDIA_FOLDER_LIST_MAX);
    return user.profile === 'admin' ? { label: await folder.label(), folder: await folder.path(), files } : { label: await folder.label(), files };
  }

  /** An admin sees every campaign; an attendant the ones they started. */
  async list(user: AuthUser, pageNumber: number): Promise<CampaignListResponse> {
    return this.repo().list(user.profile === 'admin' ? null : user.id, pageNumber, CAMPAIGN_PAGE_SIZE);
  }

  async get(user: AuthUser, id: number): Promise<CampaignDto> {
    const campaign = await this.repo().findDto(id);
    if (!campaign || (user.profile !== 'admin' && campaign.userId !== user.id)) throw new AppError('ERR_NO_CAMPAIGN_FOUND', NOT_FOUND);
    return campaign;
  }

  async recipients(user: AuthUser, id: number, pageNumber: number): Promise<CampaignRecipientListResponse> {
    await this.get(user, id);
    return this.repo().recipients(id, pageNumber, CAMPAIGN_PAGE_SIZE);
  }

  /** Every recipient with its outcome, as CSV (line, number, status, error, sentAt). */
  async recipientsCsv(user: AuthUser, id: number): Promise<string> {
    await this.get(user, id);
    const rows = await this.repo().allRecipients(id);
    // An export of numbers and outcomes (issue 37 §2: every export is recorded).
    await this.db.transaction((tx) => audit.record(tx, { action: 'campaign.export', targetType: 'campaign', targetId: id, after: { rows: rows.length } }));
    return toCsv([['line', 'number', 'status', 'error', 'sentAt'], ...rows.map((r: CampaignRecipientDto) => [r.line, r.number, r.status, r.error, r.sentAt])]);
  }

  /** A state change made by a user and its audit entry (status before and after), in one transaction. */
  private async audited(id: number, action: 'campaign.pause' | 'campaign.start' | 'campaign.cancel', change: (repo: CampaignsRepository) => Promise<boolean>): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const repo = new CampaignsRepository(tx);
      const before = await repo.findRecord(id);
      const moved = await change(repo);
      if (moved) {
        const after = await repo.findRecord(id);
        await audit.record(tx, { action, targetType: 'campaign', targetId: id, before: { status: before?.status }, after: { status: after?.status } });
      }
      return moved;
    });
  }

  /** Holds a queued or running campaign: its pending step finds its chain changed and sends nothing. */
  async pause(user: AuthUser, id: number): Promise<CampaignDto> {
    await this.get(user, id);
    const moved = await this.audited(id, 'campaign.pause', (repo) => repo.transition(id, ['queued', 'running'], 'paused', { chain: newChain(), now: this.clock() }));
    if (!moved) throw stateError('paused');
    return this.announce(id);
  }

  /** Goes on with a paused campaign from its next pending recipient, after a pause. */
  async resume(user: AuthUser, id: number): Promise<CampaignDto> {
    const campaign = await this.get(user, id);
    const chain = newChain();
    const at = this.after(this.pauseMs(campaign));
    const moved = await this.audited(id, 'campaign.start', (repo) => repo.transition(id, ['paused'], 'running', { chain, now: this.clock(), lastError: null, nextSendAt: at }));
    if (!moved) throw stateError('resumed');
    await this.scheduleStep({ campaignId: id, chain }, at);
    return this.announce(id);
  }

  /** Stops a campaign for good; recipients not reached stay `pending` in its results. */
  async cancel(user: AuthUser, id: number): Promise<CampaignDto> {
    await this.get(user, id);
    const moved = await this.audited(id, 'campaign.cancel', (repo) => repo.transition(id, ['queued', 'running', 'paused'], 'cancelled', { chain: newChain(), now: this.clock() }));
    if (!moved) throw stateError('cancelled');
    this.media.forget(id);
    return this.announce(id);
  }

  /** One step of a campaign's chain: sends its next recipient, then queues the following step. */
  async step(campaignId: number, chain: string): Promise<StepResult> {
    const campaign = await this.repo().findRecord(campaignId);
    if (!campaign || campaign.chain !== chain || !isActive(campaign.status)) return { outcome: 'stale' };

    let driver: ChannelDriver;
    try {
      driver = this.sessions.driver(campaign.whatsappId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // A connection that is down now may be back in a moment: the campaign waits, still running.
      await this.waitForConnection(campaign);
      return { outcome: 'waiting', error: err.message };
    }

    // On the Cloud API a file named by URL goes by link: Meta fetches it itself (the send API's /sendMedia…).
    const link = linkOf(driver, campaign);
    let media: OutboundMedia | null;
    try {
      media = link ? null : await this.media.of(campaign);
    } catch (err) {
      if (!(err instanceof CampaignMediaError)) throw err;
      await this.repo().transition(campaignId, ['queued', 'running'], 'paused', { chain: newChain(), now: this.clock(), lastError: err.message });
      await this.announce(campaignId);
      return { outcome: 'paused', error: err.message };
    }

    const claim = await this.repo().claimNext(campaignId, chain, this.clock());
    if (claim.outcome === 'stale') return { outcome: 'stale' };
    if (claim.outcome === 'done') {
      this.media.forget(campaignId);
      await this.announce(campaignId);
      return { outcome: 'done' };
    }
    await this.announce(campaignId);
    const outcome = await this.send(driver, campaign, claim.recipient.number, media, link);
    await this.repo().finishRecipient(campaignId, claim.recipient.line, outcome, this.clock());
    if (outcome.status === 'sent') await this.record(driver, campaign, outcome, media, link);
    if (outcome.status === 'failed') this.options.log.info({ campaignId, line: claim.recipient.line, error: outcome.error }, 'campaign recipient failed');

    // Done as soon as the last recipient is through (issue 33 item 18); else a pause after this send and one
    // before the next (§9).
    if (await this.repo().finishIfDrained(campaignId, chain, this.clock())) {
      this.media.forget(campaignId);
    } else {
      const at = this.after(this.pauseMs(campaign) + this.pauseMs(campaign));
      if (await this.repo().setNextSend(campaignId, chain, at)) await this.scheduleStep({ campaignId, chain }, at);
    }
    await this.announce(campaignId);
    const { line, number } = claim.recipient;
    return outcome.status === 'sent' ? { outcome: 'sent', line, number } : { outcome: outcome.status, line, number, error: outcome.error };
  }

  /**
   * Gives every queued or running campaign whose step is overdue (its job was lost with a process) a new chain,
   * so exactly one chain goes on; the recipient it was sending, if any, becomes `unknown` at the next step.
   */
  async recoverOverdue(): Promise<number> {
    const overdue = await this.repo().overdue(this.clock(), STEP_GRACE_MS);
    for (const { id, status } of overdue) {
      const chain = newChain();
      const at = this.clock();
      if (await this.repo().transition(id, [status], status, { chain, now: at, nextSendAt: at })) {
        this.options.log.warn({ campaignId: id }, 'campaign step overdue: resumed with a new chain');
        await this.scheduleStep({ campaignId: id, chain }, at);
      }
    }
    return overdue.length;
  }

  /**
   * This process just took over the connection (its former process died, decision 0020): each of its active
   * campaigns gets a new chain stepping now. A step job of the old chain (lost with the process, or still
   * queued) finds its chain stale and does nothing, so one chain goes on; the recipient the dead process was
   * sending, if any, becomes `unknown` (it may have gone out), never sent twice.
   */
  async resumeOn(whatsappId: number): Promise<number> {
    const active = await this.repo().activeOn(whatsappId);
    for (const { id, status } of active) {
      const chain = newChain();
      const at = this.clock();
      if (await this.repo().transition(id, [status], status, { chain, now: at, nextSendAt: at })) {
        this.options.log.info({ campaignId: id, whatsappId }, 'connection taken over: campaign resumed with a new chain');
        await this.scheduleStep({ campaignId: id, chain }, at);
      }
    }
    return active.length;
  }

  /** Sends the progress of every active campaign once a second (besides each change). */
  startProgress(intervalMs = 1000): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      this.announceActive().catch((err: unknown) => this.options.log.warn({ err }, 'campaign progress failed'));
    }, intervalMs);
    this.ticker.unref();
  }

  stopProgress(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private async announceActive(): Promise<void> {
    const recent = Date.now() - 900;
    const ids = (await this.repo().activeIds()).filter((id) => (this.announcedAt.get(id) ?? 0) < recent);
    for (const campaign of await this.repo().findDtos(ids)) {
      if (campaign.status === 'queued' || campaign.status === 'running') this.events.emit('campaign.updated', { campaign });
    }
  }

  private async send(driver: ChannelDriver, campaign: CampaignRecord, number: string, media: OutboundMedia | null, link: MediaLink | null = null): Promise<RecipientOutcome> {
    let check: { exists: boolean; number?: string } = { exists: true };
    try {
      if (!number.endsWith('@g.us')) check = await withTimeout(driver.checkNumber(number), NETWORK_TIMEOUT_MS);
    } catch (err) {
      return { status: 'failed', error: `Could not check the number: ${(err as Error).message}` };
    }
    if (!check.exists) return { status: 'failed', error: 'This number is not on WhatsApp' };
    const to = check.number ?? number;
    let sent: SentMessage;
    try {
      const sending = campaign.template
        ? sendTemplateTo(driver, to, campaign.template)
        : link && driver instanceof CloudApiDriver
          ? driver.sendMediaLink(to, link.kind, link.url, link.caption, link.filename)
          : media
          ? driver.sendMedia(to, media)
          : driver.sendText(to, campaign.message ?? '');
      sent = await withTimeout(sending, NETWORK_TIMEOUT_MS);
    } catch (err) {
      // Handed to the network without an answer: it may have arrived, so it is not sent again.
      if (err instanceof NetworkTimeout) return { status: 'unknown', error: `The send got no answer: ${err.message}` };
      // A Cloud API refusal in words, with its code (ERR_CLOUD_API_WINDOW_CLOSED, ERR_CLOUD_API_RATE_LIMITED…).
      if (err instanceof AppError && err.code.startsWith('ERR_CLOUD_API_')) return { status: 'failed', error: `${err.code}: ${err.message}` };
      return { status: 'failed', error: (err as Error).message || 'The send failed' };
    }
    return { status: 'sent', channelMessageId: sent.id, sentAt: sent.timestamp, to };
  }

  /**
   * A message sent goes into the recipient's conversation, fromMe with the campaign as its origin (decision 0029).
   * It is on the network already: a failure to record it is logged, never a reason to send again.
   */
  private async record(
    driver: ChannelDriver,
    campaign: CampaignRecord,
    sent: Extract<RecipientOutcome, { status: 'sent' }>,
    media: OutboundMedia | null,
    link: MediaLink | null,
  ): Promise<void> {
    try {
      const caption = media?.caption ?? link?.caption ?? '';
      const body = campaign.template
        ? await this.templateText(driver, campaign.id, campaign.template)
        : media || link
          ? caption || media?.filename || link?.filename || link?.url || ''
          : (campaign.message ?? '');
      const mediaType: MediaType | null = media ? (media.kind === 'document' ? 'other' : media.kind) : null;
      await this.conversations.recordSent({
        whatsappId: campaign.whatsappId,
        to: sent.to,
        body,
        mediaType,
        mediaUrl: media ? await this.media.storedUrl(campaign.id, media) : null,
        filename: media?.filename,
        channelMessageId: sent.channelMessageId,
        sentAt: sent.sentAt,
        origin: campaign.origin,
        originId: campaign.origin === 'campaign' ? campaign.id : null,
        sentByUserId: campaign.userId,
      });
    } catch (err) {
      this.options.log.warn({ err, campaignId: campaign.id, to: sent.to }, 'a sent campaign message was not recorded in its conversation');
    }
  }

  /** A template as the contact reads it (its body filled in), looked up once a campaign; its name if it cannot be. */
  private async templateText(driver: ChannelDriver, campaignId: number, template: MessageTemplate): Promise<string> {
    const known = this.templateTexts.get(campaignId);
    if (known !== undefined) return known;
    const text = await approvedTemplate(driver, template.name, template.language, template.variables)
      .then((found) => renderTemplate(found.body, template.variables) || template.name)
      .catch(() => template.name);
    if (this.templateTexts.size > 100) this.templateTexts.clear();
    this.templateTexts.set(campaignId, text);
    return text;
  }

  private async waitForConnection(campaign: CampaignRecord): Promise<void> {
    // Another process runs the connection: the step goes back to the queue at once, for its owner to take
    // (issue 17 routes it there directly). Down here: wait, and say why.
    if (this.sessions.status(campaign.whatsappId) === null) {
      const soon = new Date(this.clock().getTime() + otherProcessRetryMs());
      if (await this.repo().setNextSend(campaign.id, campaign.chain, soon)) await this.scheduleStep({ campaignId: campaign.id, chain: campaign.chain }, soon);
      return;
    }
    const at = new Date(this.clock().getTime() + CONNECTION_RETRY_MS);
    const name = (await new WhatsappRepository(this.db).findDto(campaign.whatsappId))?.name ?? String(campaign.whatsappId);
    if (!(await this.repo().setNextSend(campaign.id, campaign.chain, at, `Waiting for the connection ${name} to be connected`))) return;
    await this.scheduleStep({ campaignId: campaign.id, chain: campaign.chain }, at);
    await this.announce(campaign.id);
  }

  /** A random pause between the campaign's min and max interval, in ms. */
  private pauseMs(campaign: { minInterval: number; maxInterval: number }): number {
    const seconds = campaign.minInterval + this.random() * (campaign.maxInterval - campaign.minInterval);
    return Math.round(seconds * 1000);
  }

  private after(ms: number): Date {
    return new Date(this.clock().getTime() + ms);
  }

  private async announce(id: number): Promise<CampaignDto> {
    const campaign = await this.repo().findDto(id);
    if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND', NOT_FOUND);
    if (campaign.status === 'queued' || campaign.status === 'running') this.announcedAt.set(id, Date.now());
    else this.announcedAt.delete(id);
    this.events.emit('campaign.updated', { campaign });
    return campaign;
  }
}

/** A file the Cloud API fetches by its URL. */
interface MediaLink {
  kind: OutboundMedia['kind'];
  url: string;
  caption?: string;
  filename?: string;
}

/** A URL send (`mediaUrl`, `audio`) on a Cloud API connection goes by link; null otherwise (the file is fetched here). */
function linkOf(driver: ChannelDriver, campaign: CampaignRecord): MediaLink | null {
  if (!(driver instanceof CloudApiDriver) || !campaign.url || (campaign.kind !== 'mediaUrl' && campaign.kind !== 'audio')) return null;
  let filename: string | undefined;
  try {
    filename = decodeURIComponent(new URL(campaign.url).pathname.split('/').pop() ?? '') || undefined;
  } catch {
    filename = undefined;
  }
  const ext = filename?.includes('.') ? filename.split('.').pop()!.toLowerCase() : '';
  const kind = campaign.kind === 'audio' ? 'audio' : mediaTypeOf(MIME_BY_EXTENSION[ext === 'jpeg' ? 'jpg' : ext] ?? 'application/octet-stream');
  return { kind, url: campaign.url, caption: campaign.title ?? undefined, filename };
}

/** The send API's `number`: digits, `digits@c.us` (normalized like a campaign's line) or a group `id@g.us`. */
function recipientOf(text: string): string {
  const value = text.trim();
  if (/^[\d-]{5,40}@g\.us$/.test(value)) return value;
  const result = normalizeWhatsappNumber(value);
  if (!result.ok) throw new AppError('ERR_WAPP_INVALID_CONTACT', `number: ${REASON_TEXT[result.reason]}`);
  return result.number;
}

function isActive(status: CampaignStatus): boolean {
  return status === 'queued' || status === 'running';
}

function validation(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', `${field}: ${message}`, { issues: [{ path: field, message }] });
}

function stateError(what: string): AppError {
  return new AppError('ERR_CAMPAIGN_STATE', `This campaign cannot be ${what} now.`);
}
