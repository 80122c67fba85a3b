import { otherProcessRetryMs } from '../../jobs/other-process.js';
import {
  GROUP_ACTION_PAGE_SIZE,
  isAdmin,
  GROUP_FIELDS_ALERT,
  groupActionFieldProblems,
  parseNumberLines,
  type GroupActionData,
  type GroupActionDto,
  type GroupActionItemListResponse,
  type GroupActionListResponse,
  type GroupActionStartedResponse,
  type GroupDto,
} from '@wadesk/contracts';
import type { ChannelDriver, GroupInfo, SentMessage } from '../../channels/channel-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import type { JobLog } from '../../jobs/job-queue.js';
import { NetworkTimeout, newChain, randomBetween, withTimeout } from '../../jobs/paced-steps.js';
import { audit } from '../audit/audit.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { Clock } from '../tickets/tickets.service.js';
import { connectionOf } from '../whatsapp/connection-of.js';
import { WhatsappRepository } from '../whatsapp/whatsapp.repository.js';
import { ConversationRecord } from '../messages/conversation-record.js';
import { GroupsRepository, type GroupActionRecord, type ItemOutcome, type PlannedItem } from './groups.repository.js';

/** Queues a step of an action's chain (the `group.step` job, groups.jobs.ts); answers the job's id. */
export type GroupStepScheduler = (step: { groupActionId: number; chain: string }, at: Date) => Promise<string>;

/** What one step did: the job's output (`GET /api/jobs/:id`), with the action's progress after it. */
export type GroupStepResult = {
  groupActionId: number;
  outcome: 'stale' | 'waiting' | 'done' | 'item';
  line?: number;
  target?: string;
  status?: ItemOutcome['status'];
  error?: string;
  done?: number;
  total?: number;
};

export interface MsRange {
  min: number;
  max: number;
}

export interface GroupsOptions {
  clock?: Clock;
  /** A number in [0, 1) (tests may fix the pauses). */
  random?: () => number;
  /** The random delay before an action starts (§9: 5 to 15 s). */
  startDelayMs: MsRange;
  /** The random pause between two groups of the actions that have no interval of their own. */
  groupPauseMs: MsRange;
  log: JobLog;
}

/** The fields of an action, as the page and the send API give them. */
export type GroupActionRequest = GroupActionData;

/** An active action whose next step is this late lost its job: the watchdog gives it a new chain. */
const STEP_GRACE_MS = 2 * 60_000;
/** While the connection is down, an action looks again this often (it stays active). */
const CONNECTION_RETRY_MS = 15_000;
const NOT_FOUND = 'Group action not found.';

/**
 * Group management (issue 13): each action is stored, then run by a chain of `group.step` jobs after a random
 * start delay. The first step lists the connection's groups (or their participants) into items; every step
 * claims one item (`running` before the network call), does it, records its outcome, and queues the next step
 * after a random pause: the tab's interval between private messages, a short one between groups. The claim and
 * chain rules are the bulk sends' (decision 0014): nothing is done twice, nothing skipped silently.
 */
export class GroupsService {
  private readonly clock: Clock;
  private readonly random: () => number;
  private scheduleStep: GroupStepScheduler = async () => {
    throw new Error('group steps are not wired to the job queue');
  };

  /** Where sent messages are recorded: the groups' and participants' conversations (decision 0029). */
  private readonly conversations: ConversationRecord;

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    private readonly options: GroupsOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.conversations = new ConversationRecord(db, events);
  }

  private repo(): GroupsRepository {
    return new GroupsRepository(this.db);
  }

  useScheduler(schedule: GroupStepScheduler): void {
    this.scheduleStep = schedule;
  }

  /** The groups of a connection (the default one when none is named), as they are now. */
  async groups(whatsappId: number | undefined): Promise<GroupDto[]> {
    const id = await connectionOf(this.db, whatsappId);
    const groups = await withTimeout(this.sessions.driver(id).listGroups());
    return groups
      .map((g) => ({ id: g.id, subject: g.subject, description: g.description ?? null, participants: g.participants.length, announce: g.announce }))
      .sort((a, b) => a.subject.localeCompare(b.subject));
  }

  /**
   * Stores an action and queues its first step after the random start delay. ERR_GROUP_ACTION_FIELDS (400) when the
   * fields do not fit the action (§5): nothing is stored, nothing runs.
   */
  async start(userId: number | null, input: GroupActionRequest): Promise<GroupActionStartedResponse> {
    const problems = groupActionFieldProblems(input);
    if (problems.length > 0) throw groupFieldsError(problems);
    const whatsappId = await connectionOf(this.db, input.whatsappId);
    let participants: string | null = null;
    if (input.action === 'create') {
      const { numbers, invalid } = parseNumberLines(input.participants ?? '');
      const bad = invalid.find((i) => i.reason !== 'DUPLICATE');
      if (bad) throw validation('participants', `Line ${bad.line} is not a phone number`);
      if (numbers.length === 0) throw validation('participants', 'No line holds a valid number');
      participants = numbers.map((n) => n.number).join('\n');
    }
    const { action } = input;
    const chain = newChain();
    const at = this.after(randomBetween(this.options.startDelayMs.min, this.options.startDelayMs.max, this.random));
    const write = {
      kind: action,
      whatsappId,
      userId,
      subject: action === 'update' ? (input.subject ?? null) : null,
      description: action === 'update' ? (input.description ?? null) : null,
      title: action === 'create' ? (input.title ?? null) : null,
      participants,
      message: action === 'message' || action === 'privateMessage' ? (input.message ?? null) : null,
      minInterval: action === 'privateMessage' ? (input.minInterval ?? 0) : 0,
      maxInterval: action === 'privateMessage' ? (input.maxInterval ?? 0) : 0,
      chain,
      nextRunAt: at,
    };
    // The action and its audit entry in one transaction (issue 37 §2).
    const id = await this.db.transaction(async (tx) => {
      const newId = await new GroupsRepository(tx).insert(write);
      const { chain: _chain, nextRunAt: _nextRunAt, participants: list, ...shown } = write;
      await audit.record(tx, {
        action: 'group_action.create',
        targetType: 'groupAction',
        targetId: newId,
        after: { ...shown, participants: list ? list.split('\n').length : null },
      });
      return newId;
    });
    const jobId = await this.scheduleStep({ groupActionId: id, chain }, at);
    return { groupAction: await this.announce(id), jobId };
  }

  /** An admin sees every action; an attendant the ones they started (issue 32, as bulk sends). */
  async list(user: AuthUser, pageNumber: number): Promise<GroupActionListResponse> {
    return this.repo().list(isAdmin(user) ? null : user.id, pageNumber, GROUP_ACTION_PAGE_SIZE);
  }

  async get(user: AuthUser, id: number): Promise<GroupActionDto> {
    const action = await this.repo().findDto(id);
    if (!action || (!isAdmin(user) && action.userId !== user.id)) throw new AppError('ERR_NO_GROUP_ACTION_FOUND', NOT_FOUND);
    return action;
  }

  async items(user: AuthUser, id: number, pageNumber: number): Promise<GroupActionItemListResponse> {
    await this.get(user, id);
    return this.repo().items(id, pageNumber, GROUP_ACTION_PAGE_SIZE);
  }

  /** Stops an action for good: its pending step finds its chain changed and does nothing; items not reached stay pending. */
  async cancel(user: AuthUser, id: number): Promise<GroupActionDto> {
    await this.get(user, id);
    const moved = await this.repo().transition(id, ['queued', 'running'], 'cancelled', { chain: newChain(), now: this.clock() });
    if (!moved) throw new AppError('ERR_GROUP_ACTION_STATE', 'This group action has already finished.');
    return this.announce(id);
  }

  /** One step of an action's chain: lists its items first if need be, does the next one, queues the following. */
  async step(groupActionId: number, chain: string): Promise<GroupStepResult> {
    const stale: GroupStepResult = { groupActionId, outcome: 'stale' };
    const action = await this.repo().findRecord(groupActionId);
    if (!action || action.chain !== chain || (action.status !== 'queued' && action.status !== 'running')) return stale;

    let driver: ChannelDriver;
    try {
      driver = this.sessions.driver(action.whatsappId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await this.waitForConnection(action);
      return { groupActionId, outcome: 'waiting', error: err.message };
    }

    if (!action.planned) {
      let plan: { items: PlannedItem[]; skipped: number };
      try {
        plan = await this.plan(driver, action);
      } catch (err) {
        // The groups could not be listed: the action waits and tries again, still active.
        this.options.log.warn({ err, groupActionId }, 'group action could not list the groups');
        await this.retryLater(action, `Could not list the groups: ${(err as Error).message}`);
        return { groupActionId, outcome: 'waiting', error: (err as Error).message };
      }
      if (!(await this.repo().plan(groupActionId, chain, plan.items, plan.skipped, this.clock()))) return stale;
    }

    const claim = await this.repo().claimNext(groupActionId, chain, this.clock());
    if (claim.outcome === 'stale') return stale;
    if (claim.outcome === 'done') {
      const done = await this.announce(groupActionId);
      return { groupActionId, outcome: 'done', done: done.done, total: done.total };
    }
    await this.announce(groupActionId);
    const { item } = claim;
    const outcome = await this.perform(driver, action, item.target);
    await this.repo().finishItem(groupActionId, item.line, outcome, this.clock());
    if (outcome.status !== 'done') this.options.log.info({ groupActionId, line: item.line, error: outcome.error }, 'group action step failed');

    const at = this.after(this.pauseMs(action));
    if (await this.repo().setNextRun(groupActionId, chain, at)) await this.scheduleStep({ groupActionId, chain }, at);
    const now = await this.announce(groupActionId);
    return {
      groupActionId,
      outcome: 'item',
      line: item.line,
      target: item.target,
      status: outcome.status,
      ...(outcome.status === 'done' ? {} : { error: outcome.error }),
      done: now.done,
      total: now.total,
    };
  }

  /** Gives every active action whose step is overdue (its job was lost with a process) a new chain. */
  async recoverOverdue(): Promise<number> {
    const overdue = await this.repo().overdue(this.clock(), STEP_GRACE_MS);
    for (const { id, status } of overdue) {
      const chain = newChain();
      const at = this.clock();
      if (await this.repo().transition(id, [status], status, { chain, now: at, nextRunAt: at })) {
        this.options.log.warn({ groupActionId: id }, 'group action step overdue: resumed with a new chain');
        await this.scheduleStep({ groupActionId: id, chain }, at);
      }
    }
    return overdue.length;
  }

  /** The items of an action: the new group (create), every group, or every participant once (private message). */
  private async plan(driver: ChannelDriver, action: GroupActionRecord): Promise<{ items: PlannedItem[]; skipped: number }> {
    if (action.kind === 'create') return { items: [{ target: action.title ?? '', label: null }], skipped: 0 };
    const groups: GroupInfo[] = await withTimeout(driver.listGroups());
    if (action.kind !== 'privateMessage') return { items: groups.map((g) => ({ target: g.id, label: g.subject })), skipped: 0 };
    const own = await new WhatsappRepository(this.db).ownNumber(action.whatsappId);
    const items: PlannedItem[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    for (const group of groups) {
      for (const { number } of group.participants) {
        if (number === own || seen.has(number)) {
          skipped += 1;
          continue;
        }
        seen.add(number);
        items.push({ target: number, label: group.subject });
      }
    }
    return { items, skipped };
  }

  /** Does one item on the network, bounded in time: no answer means the outcome is unknown (never done again). */
  private async perform(driver: ChannelDriver, action: GroupActionRecord, target: string): Promise<ItemOutcome> {
    try {
      switch (action.kind) {
        case 'update':
          if (action.subject) await withTimeout(driver.updateGroupSubject(target, action.subject));
          if (action.description) await withTimeout(driver.updateGroupDescription(target, action.description));
          return { status: 'done' };
        case 'create': {
          const group = await withTimeout(driver.createGroup(action.title ?? target, (action.participants ?? '').split('\n').filter(Boolean)));
          return { status: 'done', result: group.id };
        }
        case 'open':
        case 'close':
          await withTimeout(driver.setGroupAnnounce(target, action.kind === 'close'));
          return { status: 'done' };
        case 'message':
        case 'privateMessage': {
          const sent = await withTimeout(driver.sendText(target, action.message ?? ''));
          await this.record(action, target, sent);
          return { status: 'done', result: sent.id };
        }
      }
    } catch (err) {
      if (err instanceof NetworkTimeout) return { status: 'unknown', error: `No answer: ${err.message}` };
      return { status: 'failed', error: (err as Error).message || 'The network refused it' };
    }
  }

  /**
   * A message sent goes into the group's or participant's conversation, fromMe with the action as its origin
   * (decision 0029). It is on the network already: a failure to record it is logged, never a reason to send again.
   */
  private async record(action: GroupActionRecord, target: string, sent: SentMessage): Promise<void> {
    try {
      await this.conversations.recordSent({
        whatsappId: action.whatsappId,
        to: target,
        body: action.message ?? '',
        channelMessageId: sent.id,
        sentAt: sent.timestamp,
        origin: 'group-action',
        originId: action.id,
        sentByUserId: action.userId,
      });
    } catch (err) {
      this.options.log.warn({ err, groupActionId: action.id, target }, 'a sent group message was not recorded in its conversation');
    }
  }

  private async waitForConnection(action: GroupActionRecord): Promise<void> {
    if (this.sessions.status(action.whatsappId) === null) {
      // Another process runs the connection: back to the queue at once, for its owner to take.
      const soon = new Date(this.clock().getTime() + otherProcessRetryMs());
      if (await this.repo().setNextRun(action.id, action.chain, soon)) await this.scheduleStep({ groupActionId: action.id, chain: action.chain }, soon);
      return;
    }
    const name = (await new WhatsappRepository(this.db).findDto(action.whatsappId))?.name ?? String(action.whatsappId);
    await this.retryLater(action, `Waiting for the connection ${name} to be connected`);
  }

  private async retryLater(action: GroupActionRecord, reason: string): Promise<void> {
    const at = new Date(this.clock().getTime() + CONNECTION_RETRY_MS);
    if (!(await this.repo().setNextRun(action.id, action.chain, at, reason))) return;
    await this.scheduleStep({ groupActionId: action.id, chain: action.chain }, at);
    await this.announce(action.id);
  }

  /** The pause after an item: the tab's random interval between private messages, a short one between groups. */
  private pauseMs(action: GroupActionRecord): number {
    if (action.kind === 'privateMessage') return randomBetween(action.minInterval * 1000, action.maxInterval * 1000, this.random);
    return randomBetween(this.options.groupPauseMs.min, this.options.groupPauseMs.max, this.random);
  }

  private after(ms: number): Date {
    return new Date(this.clock().getTime() + ms);
  }

  private async announce(id: number): Promise<GroupActionDto> {
    const action = await this.repo().findDto(id);
    if (!action) throw new AppError('ERR_NO_GROUP_ACTION_FOUND', NOT_FOUND);
    this.events.emit('groupAction.updated', { groupAction: action });
    return action;
  }
}

/** 400 ERR_GROUP_ACTION_FIELDS: the fields do not fit the action (§5); the issues name them. */
export function groupFieldsError(fields: readonly string[]): AppError {
  return new AppError('ERR_GROUP_ACTION_FIELDS', GROUP_FIELDS_ALERT, { issues: fields.map((path) => ({ path, message: 'Does not fit this action' })) });
}

function validation(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', `${field}: ${message}`, { issues: [{ path: field, message }] });
}
