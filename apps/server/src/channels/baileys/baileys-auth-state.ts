import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import type { AuthStateStore } from '../channel-driver.js';

/** Key under which the credentials live; signal keys live under `${type}-${id}`. */
export const CREDS_KEY = 'creds';

export interface BaileysAuthState {
  state: AuthenticationState;
  /** Persists the current credentials (call on every `creds.update`). */
  saveCreds(): Promise<void>;
}

/**
 * Values cross the store as plain JSON: Buffers and Uint8Arrays become `{ type: 'Buffer', data: base64 }`
 * (Baileys' own BufferJSON), whatever the store does with them (jsonb, text).
 */
export function toStoredValue(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, BufferJSON.replacer)) as unknown;
}

/**
 * The reverse of toStoredValue. The store may hand back encoded Buffers or already-decoded ones
 * (Node's own `{ type: 'Buffer', data: [bytes] }` from toJSON); both come out as Buffers.
 */
export function fromStoredValue<T>(stored: unknown): T {
  return JSON.parse(JSON.stringify(stored, encodeDecodedBuffers), BufferJSON.reviver) as T;
}

/** JSON replacer that encodes real bytes as base64 but leaves already-encoded ones alone (BufferJSON would re-encode them). */
function encodeDecodedBuffers(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return { type: 'Buffer', data: Buffer.from(value).toString('base64') };
  if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer') {
    const data = (value as { data?: unknown }).data;
    // Buffer#toJSON runs before a replacer: a decoded Buffer arrives here as { type: 'Buffer', data: [bytes] }.
    if (Array.isArray(data)) return { type: 'Buffer', data: Buffer.from(data as number[]).toString('base64') };
  }
  return value;
}

function signalKey(type: string, id: string): string {
  return `${type}-${id}`;
}

/**
 * A Baileys `AuthenticationState` (credentials + signal key store) kept in our database through the
 * connection's `AuthStateStore`. Never touches files.
 */
export async function loadBaileysAuthState(store: AuthStateStore): Promise<BaileysAuthState> {
  const stored = await store.get(CREDS_KEY);
  const creds: AuthenticationCreds = stored == null ? initAuthCreds() : fromStoredValue<AuthenticationCreds>(stored);

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const found = await store.getMany(ids.map((id) => signalKey(type, id)));
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          const raw = found.get(signalKey(type, id));
          if (raw == null) continue;
          let value = fromStoredValue<SignalDataTypeMap[T]>(raw);
          if (type === 'app-state-sync-key') {
            value = proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
          }
          result[id] = value;
        }
        return result;
      },
      async set(data: SignalDataSet) {
        const entries: Record<string, unknown> = {};
        for (const [type, byId] of Object.entries(data)) {
          if (!byId) continue;
          for (const [id, value] of Object.entries(byId)) {
            entries[signalKey(type, id)] = value == null ? null : toStoredValue(value);
          }
        }
        if (Object.keys(entries).length > 0) await store.set(entries);
      },
    },
  };

  return {
    state,
    saveCreds: () => store.set({ [CREDS_KEY]: toStoredValue(state.creds) }),
  };
}
