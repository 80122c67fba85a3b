import {
  isAdmin,
  mayUseTool,
  MAX_OUTREACH_RECIPIENTS,
  OUTREACH_PAGE_SIZE,
  parseRecipients,
  type AttendantTool,
  type OutreachChannel,
  type OutreachDetailResponse,
  type OutreachDto,
  type OutreachListResponse,
  type OutreachStartedResponse,
} from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { newChain, randomBetween } from '../../jobs/paced-steps.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Clock } from '../tickets/tickets.service.js';
import { OutreachRepository, type ItemOutcome } from './outreach.repository.js';
import { ProviderNoAnswer, ProviderRefused, type Providers } from './providers.js';

export type OutreachStepScheduler = (step: { batchId: number; chain: string }, at: Date) => Promise<string>;

export interface OutreachStepResult {
  batchId: number;
  outcome: 'stale' | 'done' | 'item';
  line?: number;
  recipient?: string;
  status?: ItemOutcome['status'];
  providerId?: string;
  error?: string;
}

export interface OutreachOptions {
  clock?: Clock;
  /** The pause between two sends of SMS and voice calls (§9: about 5 s). */
  pauseMs: number;
  /** The random pause between two Instagram direct messages, in ms (§9: 5–15 s, like group actions). */
  instagramPauseMs: { min: number; max: number };
  /** [0, 1) for the random pauses (tests fix it). */
  random?: () => number;
  log: JobLog;
  /** The tools attendants may use (the setting attendantTools); all when not given. */
  attendantTools?: () => Promise<ReadonlySet<AttendantTool>>;
}

/** The tool of attendantTools that opens a channel's page (issue 32). */
export const OUTREACH_TOOL: Record<OutreachChannel, AttendantTool> = { sms: 'sms', voice: 'voice', instagram: 'instagram' };

export interface OutreachRequest {
  channel: OutreachChannel;
  recipients: string;
  text: string;
  from?: string;
  language?: string;
}

const STEP_GRACE_MS = 2 * 60_000;

/** The pause after a send on a channel (§9): Instagram a random one in its range, SMS and voice the fixed one. */
export function outreachPauseMs(channel: OutreachChannel, options: Pick<OutreachOptions, 'pauseMs' | 'instagramPauseMs'>, random: () => number = Math.random): number {
  return channel === 'instagram' ? randomBetween(options.instagramPauseMs.min, options.instagramPauseMs.max, random) : options.pauseMs;
}

function validation(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', `${field}: ${message}`, { issues: [{ path: field, message }] });
}

/**
 * SMS, voice calls and Instagram direct messages to a list of recipients (issue 16): a batch stored with its
 * recipients, then one `outreach.step` job a recipient with the pause between sends; each recipient's outcome
 * (the provider's id or its reason) is kept and shown. The claim and chain rules are the bulk sends' (0014).
 */
export class OutreachService {
  private readonly clock: Clock;
  private scheduleStep: OutreachStepScheduler = async () => {
    throw new Error('outreach steps are not wired to the job queue');
  };

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly providers: Providers,
    private readonly options: OutreachOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
  }

  private repo(): OutreachRepository {
    return new OutreachRepository(this.db);
  }

  useScheduler(schedule: OutreachStepScheduler): void {
    this.scheduleStep = schedule;
  }

  /** A channel's page for a user: admins always, attendants while attendantTools lists its tool (403 otherwise). */
  private async mayUse(user: AuthUser, channel: OutreachChannel): Promise<void> {
    if (isAdmin(user) || !this.options.attendantTools) return;
    if (!mayUseTool(user, await this.options.attendantTools(), OUTREACH_TOOL[channel])) {
      throw new AppError('ERR_NO_PERMISSION', 'An administrator has not opened this tool to attendants.');
    }
  }

  /** A batch started from a page by a signed-in user. */
  async startFor(user: AuthUser, input: OutreachRequest): Promise<OutreachStartedResponse> {
    await this.mayUse(user, input.channel);
    return this.start(user.id, input);
  }

  /** Checks the fields and the provider's settings, stores the batch and queues its first step now. */
  async start(userId: number | null, input: OutreachRequest): Promise<OutreachStartedResponse> {
    const { recipients, invalid } = parseRecipients(input.channel, input.recipients);
    if (invalid.length > 0) {
      const what = input.channel === 'instagram' ? 'an Instagram user id (digits)' : 'a phone number (8 to 15 digits)';
      throw new AppError('ERR_OUTREACH_RECIPIENTS', `Line ${invalid.join(', ')}: not ${what}.`, {
        issues: [{ path: 'recipients', message: `Lines ${invalid.join(', ')}` }],
      });
    }
    if (recipients.length === 0) throw validation('recipients', 'Required');
    if (recipients.length > MAX_OUTREACH_RECIPIENTS) throw validation('recipients', `At most ${MAX_OUTREACH_RECIPIENTS} recipients`);
    if (input.channel !== 'instagram' && !input.from) throw validation('from', 'Required');
    await this.providers.check(input.channel);
    const chain = newChain();
    const at = this.clock();
    const id = await this.repo().insert(
      {
        channel: input.channel,
        userId,
        sender: input.channel === 'instagram' ? null : (input.from ?? null),
        text: input.text,
        language: input.channel === 'voice' ? (input.language ?? 'pt-BR') : null,
        chain,
        nextRunAt: at,
      },
      recipients,
      // The batch and its audit entry in one transaction (issue 37 §2).
      (tx, newId) =>
        audit.record(tx, {
          action: 'outreach.batch',
          targetType: 'outreachBatch',
          targetId: newId,
          after: { channel: input.channel, from: input.from ?? null, text: input.text, recipients: recipients.length },
        }),
    );
    const jobId = await this.scheduleStep({ batchId: id, chain }, at);
    return { batch: await this.announce(id), jobId };
  }

  /** A channel's batches: an admin every one, an attendant the ones they started (issue 32, as bulk sends). */
  async list(user: AuthUser, channel: OutreachChannel, pageNumber: number): Promise<OutreachListResponse> {
    await this.mayUse(user, channel);
    return this.repo().list(channel, isAdmin(user) ? null : user.id, pageNumber, OUTREACH_PAGE_SIZE);
  }

  /** A batch the user may see (another attendant's answers 404), of a channel they may use. */
  async get(user: AuthUser, id: number): Promise<OutreachDto> {
    const batch = await this.repo().findDto(id);
    if (!batch || (!isAdmin(user) && batch.userId !== user.id)) throw new AppError('ERR_NO_OUTREACH_FOUND', 'Batch not found.');
    await this.mayUse(user, batch.channel);
    return batch;
  }

  async detail(user: AuthUser, id: number): Promise<OutreachDetailResponse> {
    return { batch: await this.get(user, id), items: await this.repo().items(id) };
  }

  async cancel(user: AuthUser, id: number): Promise<OutreachDto> {
    await this.get(user, id);
    if (!(await this.repo().cancel(id, newChain(), this.clock()))) throw new AppError('ERR_OUTREACH_STATE', 'This batch has already finished.');
    return this.announce(id);
  }

  /** One step: claims the next recipient, sends to it, records the outcome, queues the next step after the pause. */
  async step(batchId: number, chain: string): Promise<OutreachStepResult> {
    const batch = await this.repo().findRecord(batchId);
    if (!batch || batch.chain !== chain) return { batchId, outcome: 'stale' };
    const claim = await this.repo().claimNext(batchId, chain, this.clock());
    if (claim.outcome === 'stale') return { batchId, outcome: 'stale' };
    if (claim.outcome === 'done') {
      await this.announce(batchId);
      return { batchId, outcome: 'done' };
    }
    await this.announce(batchId);
    const outcome = await this.send(batch.channel as OutreachChannel, batch, claim.recipient);
    await this.repo().finishItem(batchId, claim.line, outcome, this.clock());
    if (outcome.status !== 'sent') this.options.log.info({ batchId, line: claim.line, error: outcome.error }, 'outreach send failed');
    const at = new Date(this.clock().getTime() + outreachPauseMs(batch.channel as OutreachChannel, this.options, this.options.random));
    if (await this.repo().setNextRun(batchId, chain, at)) await this.scheduleStep({ batchId, chain }, at);
    await this.announce(batchId);
    return {
      batchId,
      outcome: 'item',
      line: claim.line,
      recipient: claim.recipient,
      status: outcome.status,
      ...(outcome.status === 'sent' ? { providerId: outcome.providerId } : { error: outcome.error }),
    };
  }

  async recoverOverdue(): Promise<number> {
    const ids = await this.repo().overdue(this.clock(), STEP_GRACE_MS);
    for (const id of ids) {
      const chain = newChain();
      const at = this.clock();
      if (await this.repo().rechain(id, chain, at)) await this.scheduleStep({ batchId: id, chain }, at);
    }
    return ids.length;
  }

  private async send(
    channel: OutreachChannel,
    batch: { sender: string | null; text: string; language: string | null },
    recipient: string,
  ): Promise<ItemOutcome> {
    try {
      const sent =
        channel === 'sms'
          ? await this.providers.sendSms(batch.sender ?? '', recipient, batch.text)
          : channel === 'voice'
            ? await this.providers.call(batch.sender ?? '', recipient, batch.text, batch.language ?? 'pt-BR')
            : await this.providers.sendDirect(recipient, batch.text);
      return { status: 'sent', providerId: sent.id };
    } catch (err) {
      if (err instanceof ProviderNoAnswer) return { status: 'unknown', error: err.message };
      if (err instanceof ProviderRefused || err instanceof AppError) return { status: 'failed', error: err.message };
      return { status: 'failed', error: `The provider could not be reached: ${(err as Error).message}` };
    }
  }

  private async announce(id: number): Promise<OutreachDto> {
    const batch = await this.repo().findDto(id);
    if (!batch) throw new AppError('ERR_NO_OUTREACH_FOUND', 'Batch not found.');
    this.events.emit('outreach.updated', { batch });
    return batch;
  }
}
