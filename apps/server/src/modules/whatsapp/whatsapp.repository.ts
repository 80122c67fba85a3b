import { maskCredential, type Channel, type CloudApiConfigDto, type SessionStatus, type WhatsappDto, type WhatsappSessionDto } from '@wadesk/contracts';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { ChannelConnections, SessionTarget, SessionWrite } from '../../channels/ports.js';
import type { Executor } from '../../db/client.js';
import { intArrayParam, prepared } from '../../db/prepared.js';
import { queues, whatsappQueues, whatsapps, type BusinessHours, type CloudApiConfig } from '../../db/schema.js';
import { toQueueDto } from '../queues/queues.mapper.js';

export interface WhatsappWrite {
  name?: string;
  channel?: Channel;
  isDefault?: boolean;
  greetingMessage?: string;
  farewellMessage?: string;
  businessHours?: BusinessHours | null;
  outOfHoursMessage?: string;
  cloud?: CloudApiConfig | null;
}

/** A `cloud-api` connection's settings as read back: the token and app secret masked (issue 18). */
export function cloudDto(id: number, cloud: CloudApiConfig): CloudApiConfigDto {
  return {
    phoneNumberId: cloud.phoneNumberId,
    businessAccountId: cloud.businessAccountId,
    accessToken: maskCredential(cloud.accessToken),
    appSecret: maskCredential(cloud.appSecret),
    verifyToken: cloud.verifyToken,
    webhookPath: `/api/webhooks/whatsapp/${id}`,
  };
}

/** The only file that queries connections; the channel layer's view of them too (ChannelConnections, decision 0034). */
export class WhatsappRepository implements ChannelConnections {
  constructor(private readonly db: Executor) {}

  async list(): Promise<WhatsappDto[]> {
    const rows = await this.db.select().from(whatsapps).orderBy(asc(whatsapps.id));
    return this.toDtos(rows);
  }

  /** Read for every inbound message: prepared statements. */
  async findDto(id: number): Promise<WhatsappDto | null> {
    const byId = prepared(this.db, 'whatsapps.byId', (name) => this.db.select().from(whatsapps).where(eq(whatsapps.id, sql.placeholder('id'))).prepare(name));
    const rows = await byId.execute({ id });
    const [dto] = await this.toDtos(rows);
    return dto ?? null;
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(whatsapps);
    return row?.n ?? 0;
  }

  async findDefaultId(): Promise<number | null> {
    const [row] = await this.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.isDefault, true)).limit(1);
    return row?.id ?? null;
  }

  /** The device's own number (digits), known once it connected; null before. */
  async ownNumber(id: number): Promise<string | null> {
    const [row] = await this.db.select({ number: whatsapps.number }).from(whatsapps).where(eq(whatsapps.id, id)).limit(1);
    return row?.number ? row.number.replace(/\D/g, '') || null : null;
  }

  /** A connection's Cloud API credentials, in full (the driver and the webhook only); null when it has none. */
  async cloudConfig(id: number): Promise<{ channel: Channel; cloud: CloudApiConfig | null } | null> {
    const [row] = await this.db.select({ channel: whatsapps.channel, cloud: whatsapps.cloud }).from(whatsapps).where(eq(whatsapps.id, id)).limit(1);
    return row ? { channel: row.channel as Channel, cloud: row.cloud ?? null } : null;
  }

  async queueIdsOf(id: number): Promise<number[]> {
    const rows = await this.db
      .select({ queueId: whatsappQueues.queueId })
      .from(whatsappQueues)
      .where(eq(whatsappQueues.whatsappId, id));
    return rows.map((r) => r.queueId);
  }

  async insert(data: Required<Pick<WhatsappWrite, 'name'>> & WhatsappWrite): Promise<number> {
    const [row] = await this.db.insert(whatsapps).values(data).returning({ id: whatsapps.id });
    return row!.id;
  }

  async update(id: number, data: WhatsappWrite): Promise<void> {
    await this.db
      .update(whatsapps)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(whatsapps.id, id));
  }

  /** Clears the default flag of every connection but `exceptId`; answers the ids it changed. */
  async unsetDefaults(exceptId?: number): Promise<number[]> {
    const where = exceptId ? and(eq(whatsapps.isDefault, true), ne(whatsapps.id, exceptId)) : eq(whatsapps.isDefault, true);
    const rows = await this.db
      .update(whatsapps)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(where)
      .returning({ id: whatsapps.id });
    return rows.map((r) => r.id);
  }

  /** Makes the oldest connection the default when none is; answers its id, if it changed one. */
  async ensureDefault(): Promise<number | null> {
    const [current] = await this.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.isDefault, true));
    if (current) return null;
    const [oldest] = await this.db.select({ id: whatsapps.id }).from(whatsapps).orderBy(asc(whatsapps.id)).limit(1);
    if (!oldest) return null;
    await this.update(oldest.id, { isDefault: true });
    return oldest.id;
  }

  async setQueues(id: number, queueIds: number[]): Promise<void> {
    await this.db.delete(whatsappQueues).where(eq(whatsappQueues.whatsappId, id));
    if (queueIds.length > 0) {
      await this.db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ whatsappId: id, queueId })));
    }
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(whatsapps).where(eq(whatsapps.id, id)).returning({ id: whatsapps.id });
    return rows.length > 0;
  }

  /** What the session manager needs to run a connection. */
  async findSessionTarget(id: number): Promise<SessionTarget | null> {
    const [row] = await this.db
      .select({ id: whatsapps.id, channel: whatsapps.channel, status: whatsapps.status })
      .from(whatsapps)
      .where(eq(whatsapps.id, id));
    return row ? { id: row.id, channel: row.channel as Channel, status: row.status as SessionStatus } : null;
  }

  async listSessionTargets(): Promise<SessionTarget[]> {
    const rows = await this.db
      .select({ id: whatsapps.id, channel: whatsapps.channel, status: whatsapps.status })
      .from(whatsapps)
      .orderBy(asc(whatsapps.id));
    return rows.map((r) => ({ id: r.id, channel: r.channel as Channel, status: r.status as SessionStatus }));
  }

  /** Writes the session fields; answers the session as the socket event carries it (null if deleted). */
  async updateSession(id: number, data: SessionWrite): Promise<WhatsappSessionDto | null> {
    const [row] = await this.db
      .update(whatsapps)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(whatsapps.id, id))
      .returning({
        id: whatsapps.id,
        status: whatsapps.status,
        qrcode: whatsapps.qrcode,
        retries: whatsapps.retries,
        updatedAt: whatsapps.updatedAt,
      });
    if (!row) return null;
    return {
      id: row.id,
      status: row.status as SessionStatus,
      qrcode: row.qrcode,
      retries: row.retries,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  private async toDtos(rows: (typeof whatsapps.$inferSelect)[]): Promise<WhatsappDto[]> {
    if (rows.length === 0) return [];
    const queuesOf = prepared(this.db, 'whatsapps.queuesOf', (name) =>
      this.db
        .select({ whatsappId: whatsappQueues.whatsappId, queue: queues })
        .from(whatsappQueues)
        .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
        .where(sql`${whatsappQueues.whatsappId} = any(${sql.placeholder('ids')}::int[])`)
        .orderBy(asc(queues.name))
        .prepare(name),
    );
    const queueRows = await queuesOf.execute({ ids: intArrayParam(rows.map((r) => r.id)) });
    return rows.map((w) => ({
      id: w.id,
      name: w.name,
      channel: w.channel as Channel,
      status: w.status as SessionStatus,
      qrcode: w.qrcode,
      retries: w.retries,
      isDefault: w.isDefault,
      greetingMessage: w.greetingMessage,
      farewellMessage: w.farewellMessage,
      businessHours: w.businessHours ?? null,
      outOfHoursMessage: w.outOfHoursMessage,
      queues: queueRows.filter((q) => q.whatsappId === w.id).map((q) => toQueueDto(q.queue)),
      createdAt: w.createdAt.toISOString(),
      updatedAt: w.updatedAt.toISOString(),
      ...(w.channel === 'cloud-api' ? { cloud: w.cloud ? cloudDto(w.id, w.cloud) : null } : {}),
    }));
  }
}
