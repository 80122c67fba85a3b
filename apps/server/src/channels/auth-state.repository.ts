import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { channelAuthState } from '../db/schema.js';
import type { AuthStateStore } from './channel-driver.js';

interface EncodedBuffer {
  type: 'Buffer';
  data: string;
}

function isEncodedBuffer(value: unknown): value is { type: 'Buffer'; data: string | number[] } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { type?: unknown; data?: unknown };
  return v.type === 'Buffer' && (typeof v.data === 'string' || Array.isArray(v.data)) && Object.keys(value).length === 2;
}

/** Makes a value JSON-safe: Buffers and byte arrays become `{ type: 'Buffer', data: base64 }`. */
export function encodeAuthValue(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    return { type: 'Buffer', data: Buffer.from(value).toString('base64') } satisfies EncodedBuffer;
  }
  if (Array.isArray(value)) return value.map(encodeAuthValue);
  if (typeof value === 'object' && value !== null) {
    if (isEncodedBuffer(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeAuthValue(v);
    return out;
  }
  return value;
}

/** The reverse of encodeAuthValue (also reads Node's own `{ type: 'Buffer', data: [bytes] }`). */
export function decodeAuthValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeAuthValue);
  if (isEncodedBuffer(value)) {
    return typeof value.data === 'string' ? Buffer.from(value.data, 'base64') : Buffer.from(value.data);
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = decodeAuthValue(v);
    return out;
  }
  return value;
}

/** A connection's auth state (credentials, signal keys) in table channel_auth_state. */
export class AuthStateRepository implements AuthStateStore {
  constructor(
    private readonly db: Database,
    private readonly whatsappId: number,
  ) {}

  async get<T = unknown>(key: string): Promise<T | null> {
    const [row] = await this.db
      .select({ value: channelAuthState.value })
      .from(channelAuthState)
      .where(and(eq(channelAuthState.whatsappId, this.whatsappId), eq(channelAuthState.key, key)));
    return row ? (decodeAuthValue(row.value) as T) : null;
  }

  async getMany<T = unknown>(keys: string[]): Promise<Map<string, T>> {
    const result = new Map<string, T>();
    if (keys.length === 0) return result;
    const rows = await this.db
      .select({ key: channelAuthState.key, value: channelAuthState.value })
      .from(channelAuthState)
      .where(and(eq(channelAuthState.whatsappId, this.whatsappId), inArray(channelAuthState.key, keys)));
    for (const row of rows) result.set(row.key, decodeAuthValue(row.value) as T);
    return result;
  }

  /** Writes every entry; a null (or undefined) value deletes its key. One transaction. */
  async set(entries: Record<string, unknown>): Promise<void> {
    const puts = Object.entries(entries).filter(([, v]) => v !== null && v !== undefined);
    const deletes = Object.entries(entries)
      .filter(([, v]) => v === null || v === undefined)
      .map(([k]) => k);
    if (puts.length === 0 && deletes.length === 0) return;
    await this.db.transaction(async (tx) => {
      if (deletes.length > 0) {
        await tx
          .delete(channelAuthState)
          .where(and(eq(channelAuthState.whatsappId, this.whatsappId), inArray(channelAuthState.key, deletes)));
      }
      if (puts.length > 0) {
        const now = new Date();
        await tx
          .insert(channelAuthState)
          .values(puts.map(([key, v]) => ({ whatsappId: this.whatsappId, key, value: encodeAuthValue(v), updatedAt: now })))
          .onConflictDoUpdate({
            target: [channelAuthState.whatsappId, channelAuthState.key],
            set: { value: sql`excluded.value`, updatedAt: now },
          });
      }
    });
  }

  async clear(): Promise<void> {
    await this.db.delete(channelAuthState).where(eq(channelAuthState.whatsappId, this.whatsappId));
  }
}
