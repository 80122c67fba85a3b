import { SETTING_KEYS, type SettingDto, type SettingKey } from '@wadesk/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { settings } from '../../db/schema.js';

export class SettingsRepository {
  constructor(private readonly db: Executor) {}

  /** Inserts the keys that are missing; existing values are kept. */
  async seed(values: Record<SettingKey, string>): Promise<void> {
    await this.db
      .insert(settings)
      .values(SETTING_KEYS.map((key) => ({ key, value: values[key] })))
      .onConflictDoNothing({ target: settings.key });
  }

  async all(): Promise<SettingDto[]> {
    const rows = await this.db.select({ key: settings.key, value: settings.value }).from(settings).orderBy(asc(settings.key));
    const known = new Set<string>(SETTING_KEYS);
    return rows.filter((r) => known.has(r.key)).map((r) => ({ key: r.key as SettingKey, value: r.value }));
  }

  async get(key: SettingKey): Promise<string | null> {
    const [row] = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    return row?.value ?? null;
  }

  async set(key: SettingKey, value: string): Promise<void> {
    await this.db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  }
}
