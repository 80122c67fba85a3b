import { randomBytes } from 'node:crypto';
import {
  AUDIT_MASK,
  type AttendantTool,
  isPublicSetting,
  isSettingKey,
  maskSecret,
  parseAttendantTools,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  settingDefinition,
  validateSettingValue,
  type SettingDto,
  type SettingKey,
} from '@wadesk/contracts';
import type { Database, Executor } from '../../db/client.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import { SettingsRepository } from './settings.repository.js';

function newApiToken(): string {
  return randomBytes(24).toString('base64url');
}

/** A setting as the browser may see it: secrets masked (only whether one is set, and its end when long). */
export function masked(setting: SettingDto): SettingDto {
  return settingDefinition(setting.key).kind === 'secret' ? { key: setting.key, value: maskSecret(setting.value) } : setting;
}

/** A check of a value that needs more than the value (the file system, ...): throws an AppError to refuse it. */
export type SettingCheck = (value: string) => Promise<void>;

/**
 * How long a value read for every request (attendantTools) is kept before it is read again. A change made through
 * this process applies at once; one made through another process (decision 0020) within this time.
 */
export const SETTING_CACHE_MS = 2000;

export class SettingsService {
  private readonly checks = new Map<SettingKey, SettingCheck>();
  private readonly cache = new Map<SettingKey, { value: string; readAt: number }>();

  constructor(
    private readonly db: Database,
    private readonly events: DomainEvents,
  ) {}

  private repo(executor: Executor = this.db): SettingsRepository {
    return new SettingsRepository(executor);
  }

  /** Adds the server's own check of a key's new values (bulkMediaFolder: never the server's own folders). */
  checkWith(key: SettingKey, check: SettingCheck): void {
    this.checks.set(key, check);
  }

  /** Every key of the specification with its default; the API token is random, generated once. */
  async seed(): Promise<void> {
    const values = Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTING_DEFINITIONS[k].default])) as Record<SettingKey, string>;
    values.userApiToken = newApiToken();
    await this.repo().seed(values);
  }

  async list(forAdmin: boolean): Promise<SettingDto[]> {
    const all = await this.repo().all();
    return forAdmin ? all.map(masked) : all.filter((s) => isPublicSetting(s.key));
  }

  /** A setting's value (its default when unset); inside a transaction, pass it: its connection reads. */
  async value(key: SettingKey, executor?: Executor): Promise<string> {
    return (await this.repo(executor).get(key)) ?? SETTING_DEFINITIONS[key].default;
  }

  /** A setting's value as read at most SETTING_CACHE_MS ago: for checks made on every request. */
  async cachedValue(key: SettingKey): Promise<string> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.readAt < SETTING_CACHE_MS) return hit.value;
    const value = await this.value(key);
    this.cache.set(key, { value, readAt: Date.now() });
    return value;
  }

  /** The tools attendants may use now (the setting attendantTools). */
  async attendantTools(): Promise<ReadonlySet<AttendantTool>> {
    return parseAttendantTools(await this.cachedValue('attendantTools'));
  }

  async update(key: string, value: string): Promise<SettingDto> {
    if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', `Unknown setting: ${key}`);
    if (settingDefinition(key).kind === 'readonly') {
      throw new AppError('ERR_SETTING_READ_ONLY', `${key} cannot be changed this way.`);
    }
    const problem = validateSettingValue(key, value);
    if (problem) throw new AppError('ERR_VALIDATION', `value: ${problem}`, { issues: [{ path: 'value', message: problem }] });
    await this.checks.get(key)?.(value);
    return masked(await this.write(key, value, key === 'attendantTools' ? 'tool_access.update' : 'settings.update'));
  }

  async regenerateApiToken(): Promise<SettingDto> {
    return this.write('userApiToken', newApiToken(), 'api_token.regenerate');
  }

  /** Writes the value and its audit entry in one transaction (secrets and the API token as '***'). */
  private async write(key: SettingKey, value: string, action: 'settings.update' | 'tool_access.update' | 'api_token.regenerate'): Promise<SettingDto> {
    const secret = settingDefinition(key).kind === 'secret' || settingDefinition(key).kind === 'readonly';
    const shown = (v: string | null) => (secret && v ? AUDIT_MASK : v);
    await this.db.transaction(async (tx) => {
      const before = await this.repo(tx).get(key);
      await this.repo(tx).set(key, value);
      await audit.record(tx, { action, targetType: 'setting', targetId: key, before: { value: shown(before) }, after: { value: shown(value) } });
    });
    this.cache.set(key, { value, readAt: Date.now() });
    const setting = { key, value };
    this.events.emit('setting.updated', { setting });
    return setting;
  }
}
