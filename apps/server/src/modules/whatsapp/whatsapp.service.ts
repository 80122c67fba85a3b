import type { CloudTemplateDto, WhatsappDto, WhatsappInput, WhatsappUpdateInput } from '@wadesk/contracts';
import { listTemplates } from '../../channels/cloud-api/cloud-templates.js';
import { GraphClient } from '../../channels/cloud-api/graph-client.js';
import type { z } from 'zod';
import type { SessionManager } from '../../channels/session-manager.js';
import type { Database } from '../../db/client.js';
import type { CloudApiConfig } from '../../db/schema.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import { WhatsappRepository } from './whatsapp.repository.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';

export type CreateData = z.output<typeof WhatsappInput>;
export type UpdateData = z.output<typeof WhatsappUpdateInput>;

/** A connection as the audit log keeps it: no QR code, no session state (the Cloud API's secrets are masked there). */
function auditView(whatsapp: WhatsappDto | null): unknown {
  if (!whatsapp) return null;
  const { qrcode: _qrcode, status: _status, battery: _battery, plugged: _plugged, retries: _retries, lastError: _lastError, ...rest } = whatsapp as WhatsappDto & Record<string, unknown>;
  return rest;
}

/** More than one queue needs a greeting that lets the contact choose. */
function checkGreeting(queueIds: number[], greetingMessage: string): void {
  if (new Set(queueIds).size > 1 && greetingMessage.trim() === '') throw new AppError('ERR_WAPP_GREETING_REQUIRED');
}

/**
 * The Cloud API credentials a write leaves on the connection (issue 18): on a `cloud-api` connection the five are
 * needed (ERR_CLOUD_API_CONFIG); a secret left out, or sent back masked as it was read, keeps the stored one.
 * Other channels keep nothing.
 */
function cloudConfigOf(channel: string, data: CreateData | UpdateData, current: CloudApiConfig | null): CloudApiConfig | null {
  if (channel !== 'cloud-api') return null;
  const secret = (given: string | undefined, stored: string | undefined) => (given === undefined || given.startsWith('••••') ? stored : given);
  const config = {
    phoneNumberId: data.cloudPhoneNumberId ?? current?.phoneNumberId,
    businessAccountId: data.cloudBusinessAccountId ?? current?.businessAccountId,
    accessToken: secret(data.cloudAccessToken, current?.accessToken),
    appSecret: secret(data.cloudAppSecret, current?.appSecret),
    verifyToken: data.cloudVerifyToken ?? current?.verifyToken,
  };
  const missing = Object.entries(config).filter(([, value]) => !value).map(([key]) => `cloud${key[0]!.toUpperCase()}${key.slice(1)}`);
  if (missing.length > 0) {
    throw new AppError('ERR_CLOUD_API_CONFIG', undefined, { issues: missing.map((path) => ({ path, message: 'Required' })) });
  }
  return config as CloudApiConfig;
}

/**
 * What a viewer may read of a connection: everything but, for attendants, the pending QR code and the Cloud API
 * settings. Whoever scans that code pairs their own phone as the connection, a change that stays admin-only
 * (docs/decisions/0009); the Cloud API's verify token (and its ids) are for configuring Meta, an admin's task.
 * The realtime `whatsapp` event to attendants should send the same view.
 */
export function whatsappForViewer(whatsapp: WhatsappDto, admin: boolean): WhatsappDto {
  if (admin) return whatsapp;
  const view: WhatsappDto = { ...whatsapp, qrcode: '' };
  delete view.cloud;
  return view;
}

/** Connections: exactly one default, greeting rule, and their sessions started and stopped with them. */
export class WhatsappService {
  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
    private readonly sessions: SessionManager,
    /** Meta's Graph API (WHATSAPP_GRAPH_URL): a Cloud API connection's templates read from any process. */
    private readonly graphUrl: string | null = null,
  ) {}

  private repo(): WhatsappRepository {
    return new WhatsappRepository(this.db);
  }

  /** Every connection; unless `admin`, the attendant's view: no QR code. */
  async list(admin = false): Promise<WhatsappDto[]> {
    return (await this.repo().list()).map((w) => whatsappForViewer(this.withLastError(w), admin));
  }

  async get(id: number, admin = false): Promise<WhatsappDto> {
    const whatsapp = await this.repo().findDto(id);
    if (!whatsapp) throw new AppError('ERR_NO_WAPP_FOUND');
    return whatsappForViewer(this.withLastError(whatsapp), admin);
  }

  /** Adds why the connection last failed, as the session manager of this process knows it. */
  private withLastError(whatsapp: WhatsappDto): WhatsappDto {
    return { ...whatsapp, lastError: this.sessions.lastError(whatsapp.id) };
  }

  /** Creates a connection (the first one is the default) and starts its session. */
  async create(data: CreateData): Promise<WhatsappDto> {
    checkGreeting(data.queueIds, data.greetingMessage);
    const cloud = cloudConfigOf(data.channel, data, null);
    const { id, unset } = await this.retryOnDefaultRace(() =>
      this.db.transaction(async (tx) => {
        const repo = new WhatsappRepository(tx);
        const isDefault = data.isDefault || (await repo.count()) === 0;
        const unsetIds = isDefault ? await repo.unsetDefaults() : [];
        const newId = await repo.insert({
          name: data.name,
          channel: data.channel,
          isDefault,
          greetingMessage: data.greetingMessage,
          farewellMessage: data.farewellMessage,
          businessHours: data.businessHours,
          outOfHoursMessage: data.outOfHoursMessage,
          cloud,
        });
        await repo.setQueues(newId, [...new Set(data.queueIds)]);
        await audit.record(tx, { action: 'connection.create', targetType: 'connection', targetId: newId, after: auditView(await repo.findDto(newId)) });
        return { id: newId, unset: unsetIds };
      }),
    );
    await this.announce([...unset, id]);
    await this.sessions.start(id);
    return this.withLastError((await this.repo().findDto(id))!);
  }

  async update(id: number, data: UpdateData): Promise<WhatsappDto> {
    const repo = this.repo();
    const current = await repo.findDto(id);
    if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
    if (data.isDefault === false && current.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
    const queueIds = data.queueIds ? [...new Set(data.queueIds)] : current.queues.map((q) => q.id);
    checkGreeting(queueIds, data.greetingMessage ?? current.greetingMessage);
    const makeDefault = data.isDefault === true && !current.isDefault;
    const channel = data.channel ?? current.channel;
    const stored = channel === 'cloud-api' ? ((await repo.cloudConfig(id))?.cloud ?? null) : null;
    const cloud = cloudConfigOf(channel, data, stored);
    const cloudChanged = channel === 'cloud-api' && JSON.stringify(cloud) !== JSON.stringify(stored);
    const unset = await this.retryOnDefaultRace(() =>
      this.db.transaction(async (tx) => {
        const txRepo = new WhatsappRepository(tx);
        const unsetIds = makeDefault ? await txRepo.unsetDefaults(id) : [];
        await txRepo.update(id, {
          name: data.name,
          channel: data.channel,
          greetingMessage: data.greetingMessage,
          farewellMessage: data.farewellMessage,
          businessHours: data.businessHours,
          outOfHoursMessage: data.outOfHoursMessage,
          ...(cloudChanged || data.channel ? { cloud } : {}),
          ...(makeDefault ? { isDefault: true } : {}),
        });
        if (data.queueIds) await txRepo.setQueues(id, queueIds);
        const after = auditView(await txRepo.findDto(id));
        await audit.record(tx, { action: 'connection.update', targetType: 'connection', targetId: id, before: auditView(current), after });
        return unsetIds;
      }),
    );
    await this.announce([...unset, id]);
    // Another channel means other credentials: log the old device out and pair again.
    if (data.channel && data.channel !== current.channel) await this.sessions.newQr(id);
    // New Cloud API credentials: connect again with them (the test call).
    else if (cloudChanged) await this.sessions.restart(id);
    return this.withLastError((await repo.findDto(id))!);
  }

  /** Deletes a connection: its session stops, its tickets go with it; another becomes the default. */
  async delete(id: number): Promise<void> {
    if (!(await this.repo().findDto(id))) throw new AppError('ERR_NO_WAPP_FOUND');
    await this.sessions.stop(id);
    // Its tickets go with it (foreign key cascade): tell open lists to drop them.
    const tickets = await new TicketsRepository(this.db).findDtosOfConnection(id);
    const promoted = await this.db.transaction(async (tx) => {
      const repo = new WhatsappRepository(tx);
      const before = await repo.findDto(id);
      if (!(await repo.delete(id))) return null;
      await audit.record(tx, { action: 'connection.delete', targetType: 'connection', targetId: id, before: auditView(before) });
      return repo.ensureDefault();
    });
    for (const ticket of tickets) this.events.emit('ticket.deleted', { ticket });
    this.events.emit('whatsapp.deleted', { whatsappId: id });
    if (promoted) await this.announce([promoted]);
  }

  /** The templates of a `cloud-api` connection, from the Graph API (ERR_VALIDATION on other channels). */
  async templates(id: number): Promise<CloudTemplateDto[]> {
    await this.get(id);
    if (this.graphUrl && this.sessions.status(id) === null) {
      // Another server process runs the connection (several processes): the Graph API answers this one as well.
      const row = await this.repo().cloudConfig(id);
      if (row?.channel === 'cloud-api' && row.cloud) return listTemplates(new GraphClient(this.graphUrl, row.cloud));
    }
    return listTemplates(this.sessions.driver(id));
  }

  /** POST /whatsappsession/:id: try again. */
  async retrySession(id: number): Promise<void> {
    await this.get(id, true);
    await this.sessions.restart(id);
    await this.recordSession(id, 'retry');
  }

  /** PUT /whatsappsession/:id: a new QR code. */
  async newQrSession(id: number): Promise<void> {
    await this.get(id, true);
    await this.sessions.newQr(id);
    await this.recordSession(id, 'newQrCode');
  }

  /** DELETE /whatsappsession/:id: disconnect. */
  async disconnectSession(id: number): Promise<void> {
    await this.get(id, true);
    await this.sessions.disconnect(id);
    await this.recordSession(id, 'disconnect');
  }

  /** A session action (retry, new QR code, disconnect) acts on the device, not on a row: recorded once it is done. */
  private async recordSession(id: number, action: 'retry' | 'newQrCode' | 'disconnect'): Promise<void> {
    await this.db.transaction((tx) => audit.record(tx, { action: 'connection.session', targetType: 'connection', targetId: id, after: { action } }));
  }

  private async announce(ids: number[]): Promise<void> {
    const repo = this.repo();
    for (const id of new Set(ids)) {
      const whatsapp = await repo.findDto(id);
      if (whatsapp) this.events.emit('whatsapp.saved', { whatsapp: this.withLastError(whatsapp) });
    }
  }

  /** Two concurrent writes may both set a default; the partial unique index refuses one: run it again. */
  private async retryOnDefaultRace<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err, 'whatsapps_one_default')) return write().catch((again: unknown) => Promise.reject(this.translate(again)));
      throw this.translate(err);
    }
  }

  private translate(err: unknown): unknown {
    if (isForeignKeyViolation(err)) return new AppError('ERR_VALIDATION', 'A queue given does not exist.');
    return err;
  }
}
