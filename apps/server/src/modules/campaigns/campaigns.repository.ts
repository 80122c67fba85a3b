import type { CampaignDto, CampaignKind, CampaignRecipientDto, CampaignStatus, MessageTemplate, RecipientStatus } from '@wadesk/contracts';
import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { campaignRecipients, campaigns, users, whatsapps } from '../../db/schema.js';

export interface CampaignWrite {
  kind: CampaignKind;
  whatsappId: number;
  userId: number | null;
  /** campaign: the Campaigns page; api: the send API. Its messages in the conversations carry it (decision 0029). */
  origin: 'campaign' | 'api';
  message: string | null;
  url: string | null;
  title: string | null;
  path: string | null;
  minInterval: number;
  maxInterval: number;
  /** Each recipient gets this approved template (cloud-api connections, issue 18). */
  template: MessageTemplate | null;
  chain: string;
}

export interface RecipientWrite {
  line: number;
  number: string;
  status: 'pending' | 'invalid';
  error: string | null;
}

/** What the step job needs of a campaign. */
export interface CampaignRecord extends CampaignWrite {
  id: number;
  status: CampaignStatus;
}

export interface ClaimedRecipient {
  line: number;
  number: string;
}

export type Claim =
  | { outcome: 'stale' }
  | { outcome: 'done'; campaign: CampaignRecord }
  | { outcome: 'claimed'; campaign: CampaignRecord; recipient: ClaimedRecipient };

export type RecipientOutcome =
  | { status: 'sent'; channelMessageId: string; sentAt: Date; /** the chat it went to, as the network named it */ to: string }
  | { status: 'failed' | 'unknown'; error: string };

const dtoColumns = {
  campaign: campaigns,
  whatsappName: whatsapps.name,
  userName: users.name,
};

function toRecord(c: typeof campaigns.$inferSelect): CampaignRecord {
  return {
    id: c.id,
    kind: c.kind as CampaignKind,
    status: c.status as CampaignStatus,
    whatsappId: c.whatsappId,
    userId: c.userId,
    origin: c.origin === 'api' ? 'api' : 'campaign',
    message: c.message,
    url: c.url,
    title: c.title,
    path: c.path,
    minInterval: c.minInterval,
    maxInterval: c.maxInterval,
    template: c.template ?? null,
    chain: c.chain,
  };
}

function toCampaignDto(row: { campaign: typeof campaigns.$inferSelect; whatsappName: string | null; userName: string | null }): CampaignDto {
  const c = row.campaign;
  const { chain: _chain, origin: _origin, ...fields } = toRecord(c);
  return {
    ...fields,
    whatsappName: row.whatsappName,
    userName: row.userName,
    total: c.total,
    sent: c.sent,
    failed: c.failed,
    unknown: c.unknown,
    invalid: c.invalid,
    nextSendAt: c.status === 'running' || c.status === 'queued' ? (c.nextSendAt?.toISOString() ?? null) : null,
    lastError: c.lastError,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    startedAt: c.startedAt?.toISOString() ?? null,
    finishedAt: c.finishedAt?.toISOString() ?? null,
  };
}

function toRecipientDto(row: typeof campaignRecipients.$inferSelect): CampaignRecipientDto {
  return {
    line: row.line,
    number: row.number,
    status: row.status as RecipientStatus,
    error: row.error,
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

const RECIPIENT_BATCH = 1000;
const UNKNOWN_OUTCOME = 'The server stopped during this send: it is not known whether it arrived, so it is not sent again.';

/** The only file that queries campaigns and their recipients. */
export class CampaignsRepository {
  constructor(private readonly db: Executor) {}

  /** Stores a campaign and all its recipients in one transaction; `alsoInTransaction` adds its own writes (the audit entry). */
  async insert(data: CampaignWrite, recipients: RecipientWrite[], alsoInTransaction?: (tx: Executor, id: number) => Promise<void>): Promise<number> {
    return this.db.transaction(async (tx) => {
      const total = recipients.filter((r) => r.status === 'pending').length;
      const [row] = await tx
        .insert(campaigns)
        .values({ ...data, total, invalid: recipients.length - total, nextSendAt: new Date() })
        .returning({ id: campaigns.id });
      const id = row!.id;
      for (let i = 0; i < recipients.length; i += RECIPIENT_BATCH) {
        await tx.insert(campaignRecipients).values(recipients.slice(i, i + RECIPIENT_BATCH).map((r) => ({ ...r, campaignId: id })));
      }
      await alsoInTransaction?.(tx, id);
      return id;
    });
  }

  /** Newest first; only `userId`'s campaigns when given. */
  async list(userId: number | null, page: number, pageSize: number): Promise<{ campaigns: CampaignDto[]; hasMore: boolean }> {
    const rows = await this.selectDtos()
      .where(userId === null ? undefined : eq(campaigns.userId, userId))
      .orderBy(desc(campaigns.id))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { campaigns: rows.slice(0, pageSize).map(toCampaignDto), hasMore: rows.length > pageSize };
  }

  async findDto(id: number): Promise<CampaignDto | null> {
    const [row] = await this.selectDtos().where(eq(campaigns.id, id)).limit(1);
    return row ? toCampaignDto(row) : null;
  }

  async findDtos(ids: number[]): Promise<CampaignDto[]> {
    if (ids.length === 0) return [];
    const rows = await this.selectDtos().where(inArray(campaigns.id, ids));
    return rows.map(toCampaignDto);
  }

  async findRecord(id: number): Promise<CampaignRecord | null> {
    const [row] = await this.db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
    return row ? toRecord(row) : null;
  }

  async recipients(campaignId: number, page: number, pageSize: number): Promise<{ recipients: CampaignRecipientDto[]; hasMore: boolean }> {
    const rows = await this.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaignId))
      .orderBy(asc(campaignRecipients.line))
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize);
    return { recipients: rows.slice(0, pageSize).map(toRecipientDto), hasMore: rows.length > pageSize };
  }

  async allRecipients(campaignId: number): Promise<CampaignRecipientDto[]> {
    const rows = await this.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaignId))
      .orderBy(asc(campaignRecipients.line));
    return rows.map(toRecipientDto);
  }

  /**
   * Takes the campaign's next recipient for `chain`, in one transaction with the campaign row locked:
   * - another chain owns the campaign, or it is not queued/running: `stale` (the caller sends nothing);
   * - a recipient left `sending` (the server stopped during its send) becomes `unknown`, never sent again;
   * - no recipient left: the campaign is `done`;
   * - otherwise the next one (by line) is marked `sending` before anything is sent.
   */
  async claimNext(campaignId: number, chain: string, now: Date): Promise<Claim> {
    return this.db.transaction(async (tx) => {
      const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for('update');
      if (!campaign || campaign.chain !== chain || (campaign.status !== 'queued' && campaign.status !== 'running')) {
        return { outcome: 'stale' } as const;
      }
      const lost = await tx
        .update(campaignRecipients)
        .set({ status: 'unknown', error: UNKNOWN_OUTCOME })
        .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.status, 'sending')))
        .returning({ line: campaignRecipients.line });
      const [next] = await tx
        .select({ line: campaignRecipients.line, number: campaignRecipients.number })
        .from(campaignRecipients)
        .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.status, 'pending')))
        .orderBy(asc(campaignRecipients.line))
        .limit(1);
      const started = campaign.startedAt ?? now;
      if (!next) {
        const [done] = await tx
          .update(campaigns)
          .set({ status: 'done', unknown: sql`${campaigns.unknown} + ${lost.length}`, startedAt: started, finishedAt: now, nextSendAt: null, updatedAt: now })
          .where(eq(campaigns.id, campaignId))
          .returning();
        return { outcome: 'done', campaign: toRecord(done!) } as const;
      }
      await tx
        .update(campaignRecipients)
        .set({ status: 'sending' })
        .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.line, next.line)));
      const [running] = await tx
        .update(campaigns)
        // While the send is under way, nextSendAt says when it began: the watchdog takes a step older than its
        // grace (far longer than a send may take) for lost.
        .set({ status: 'running', unknown: sql`${campaigns.unknown} + ${lost.length}`, startedAt: started, nextSendAt: now, updatedAt: now })
        .where(eq(campaigns.id, campaignId))
        .returning();
      return { outcome: 'claimed', campaign: toRecord(running!), recipient: next } as const;
    });
  }

  /** Records what became of a recipient that was `sending`, and counts it. */
  async finishRecipient(campaignId: number, line: number, outcome: RecipientOutcome, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [changed] = await tx
        .update(campaignRecipients)
        .set(
          outcome.status === 'sent'
            ? { status: 'sent', channelMessageId: outcome.channelMessageId, sentAt: outcome.sentAt, error: null }
            : { status: outcome.status, error: outcome.error.slice(0, 1000) },
        )
        .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.line, line), eq(campaignRecipients.status, 'sending')))
        .returning({ line: campaignRecipients.line });
      if (!changed) return; // already settled by a recovery: counted there
      const counter =
        outcome.status === 'sent'
          ? { sent: sql`${campaigns.sent} + 1` }
          : outcome.status === 'failed'
            ? { failed: sql`${campaigns.failed} + 1` }
            : { unknown: sql`${campaigns.unknown} + 1` };
      await tx.update(campaigns).set({ ...counter, updatedAt: now }).where(eq(campaigns.id, campaignId));
    });
  }

  /**
   * Marks the campaign done once no recipient is pending or sending (its chain still current, it still running):
   * the last recipient through is the end, not a pause later (issue 33 item 18). False when recipients remain.
   */
  async finishIfDrained(campaignId: number, chain: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [campaign] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for('update');
      if (!campaign || campaign.chain !== chain || campaign.status !== 'running') return false;
      const [left] = await tx
        .select({ line: campaignRecipients.line })
        .from(campaignRecipients)
        .where(and(eq(campaignRecipients.campaignId, campaignId), inArray(campaignRecipients.status, ['pending', 'sending'])))
        .limit(1);
      if (left) return false;
      await tx
        .update(campaigns)
        .set({ status: 'done', finishedAt: now, nextSendAt: null, updatedAt: now })
        .where(eq(campaigns.id, campaignId));
      return true;
    });
  }

  /** Puts a `sending` recipient back to `pending`: only when nothing was handed to the network. */
  async releaseRecipient(campaignId: number, line: number): Promise<void> {
    await this.db
      .update(campaignRecipients)
      .set({ status: 'pending' })
      .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.line, line), eq(campaignRecipients.status, 'sending')));
  }

  /** When the next step of `chain` is due (and why it waits, if it does); false when the chain no longer owns a running campaign. */
  async setNextSend(campaignId: number, chain: string, at: Date, waitingFor: string | null = null): Promise<boolean> {
    const rows = await this.db
      .update(campaigns)
      .set({ nextSendAt: at, lastError: waitingFor, updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.chain, chain), inArray(campaigns.status, ['queued', 'running'])))
      .returning({ id: campaigns.id });
    return rows.length > 0;
  }

  /**
   * Moves a campaign from one of `from` to `to`, drawing `chain` (pause, resume, cancel, a recovery); false when
   * it was in none of `from`.
   */
  async transition(
    campaignId: number,
    from: CampaignStatus[],
    to: CampaignStatus,
    changes: { chain: string; now: Date; lastError?: string | null; nextSendAt?: Date | null },
  ): Promise<boolean> {
    const finished = to === 'done' || to === 'cancelled';
    const rows = await this.db
      .update(campaigns)
      .set({
        status: to,
        chain: changes.chain,
        updatedAt: changes.now,
        nextSendAt: changes.nextSendAt ?? null,
        ...(changes.lastError !== undefined ? { lastError: changes.lastError } : {}),
        ...(finished ? { finishedAt: changes.now } : {}),
      })
      .where(and(eq(campaigns.id, campaignId), inArray(campaigns.status, from)))
      .returning({ id: campaigns.id });
    return rows.length > 0;
  }

  /** Queued or running campaigns whose next step is overdue by `graceMs` (its job was lost): the watchdog's list. */
  async overdue(now: Date, graceMs: number): Promise<{ id: number; status: CampaignStatus }[]> {
    const rows = await this.db
      .select({ id: campaigns.id, status: campaigns.status })
      .from(campaigns)
      .where(
        and(
          inArray(campaigns.status, ['queued', 'running']),
          or(isNull(campaigns.nextSendAt), lt(campaigns.nextSendAt, new Date(now.getTime() - graceMs))),
        ),
      );
    return rows.map((r) => ({ id: r.id, status: r.status as CampaignStatus }));
  }

  /** Ids of the campaigns being sent now (for the once-a-second progress). */
  /** Queued or running campaigns of one connection, with their status. */
  async activeOn(whatsappId: number): Promise<{ id: number; status: CampaignStatus }[]> {
    const rows = await this.db
      .select({ id: campaigns.id, status: campaigns.status })
      .from(campaigns)
      .where(and(eq(campaigns.whatsappId, whatsappId), inArray(campaigns.status, ['queued', 'running'])));
    return rows.map((r) => ({ id: r.id, status: r.status as CampaignStatus }));
  }

  async activeIds(): Promise<number[]> {
    const rows = await this.db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(inArray(campaigns.status, ['queued', 'running']) as SQL)
      .limit(200);
    return rows.map((r) => r.id);
  }

  private selectDtos() {
    return this.db
      .select(dtoColumns)
      .from(campaigns)
      .leftJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
      .leftJoin(users, eq(users.id, campaigns.userId))
      .$dynamic();
  }
}
