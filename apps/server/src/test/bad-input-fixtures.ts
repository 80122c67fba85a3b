import type { Channel } from '@wadesk/contracts';
import fc from 'fast-check';
import type { ChannelDriver, ChannelDriverFactory } from '../channels/channel-driver.js';
import { queryRows } from './desk-factories.js';
import type { TestApp } from './test-app.js';

/**
 * Shared pieces of the bad-input tests: a checksum of the stored desk, an inert driver for connections the
 * fuzzer may create, and the arbitraries that build hostile paths, query strings and bodies.
 */

/** A driver that never talks to a network: connections created by fuzzed requests stay quiet. */
export const inertDrivers: ReadonlyMap<Channel, ChannelDriverFactory> = new Map([
  [
    'baileys',
    (): ChannelDriver => {
      const refuse = async (): Promise<never> => {
        throw new Error('inert driver');
      };
      return {
        start: async () => {},
        stop: async () => {},
        logout: async () => {},
        sendText: refuse,
        sendMedia: refuse,
        deleteMessage: refuse,
        checkNumber: async () => ({ exists: false }),
        profilePictureUrl: async () => null,
        createGroup: refuse,
        listGroups: async () => [],
        updateGroupSubject: refuse,
        updateGroupDescription: refuse,
        setGroupAnnounce: refuse,
        fetchHistory: async () => [],
      };
    },
  ],
]);

/**
 * The stored rows a refused request must not touch, one md5 per table. A connection's session columns
 * (status, qrcode, retries, updated_at) move on their own as drivers report, so they are left out.
 */
const CHECKSUMMED: Record<string, string> = {
  users: 'id, name, email, password_hash, profile, whatsapp_id, tokens_valid_after, created_at, updated_at',
  user_queues: '*',
  contacts: '*',
  contact_custom_fields: '*',
  queues: '*',
  tickets: '*',
  messages: '*',
  settings: '*',
  quick_answers: '*',
  whatsapps: 'id, name, channel, is_default, greeting_message, farewell_message, created_at',
  whatsapp_queues: '*',
};

export async function storedChecksum(t: TestApp): Promise<Record<string, string>> {
  const parts = Object.entries(CHECKSUMMED).map(
    ([table, columns]) =>
      `select '${table}' as name, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as sum from (select ${columns} from ${table}) r`,
  );
  const rows = await queryRows<{ name: string; sum: string }>(t, parts.join(' union all '));
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

/**
 * The checksum once background work started by a successful request has settled: unchanged for `quietMs`
 * (the simulator acks a sent message 200 ms after sending it), or whatever it is after 5 s.
 */
export async function settledChecksum(t: TestApp, quietMs = 400): Promise<Record<string, string>> {
  let previous = await storedChecksum(t);
  let quietSince = Date.now();
  const until = Date.now() + 5000;
  while (Date.now() - quietSince < quietMs && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    const current = await storedChecksum(t);
    if (JSON.stringify(current) !== JSON.stringify(previous)) quietSince = Date.now();
    previous = current;
  }
  return previous;
}

/** Field names the routes read, in bodies and query strings. */
export const FIELD_NAMES = [
  'id', 'name', 'email', 'password', 'profile', 'number', 'extraInfo', 'value', 'color', 'greetingMessage',
  'farewellMessage', 'isDefault', 'queueIds', 'channel', 'whatsappId', 'userId', 'queueId', 'contactId', 'status',
  'shortcut', 'message', 'body', 'quotedMsg', 'mediaUrl', 'mediaType', 'fromMe', 'read', 'from', 'ack', 'quotedId',
  'groupId', 'groupName',
] as const;

export const QUERY_NAMES = [
  'searchParam', 'pageNumber', 'status', 'date', 'showAll', 'queueIds', 'withUnreadMessages', 'isGroup', 'to', 'sig',
] as const;

/** Ids no fixture row has: a well-formed id in a fuzzed request never reaches a stored record. */
export const MISSING_IDS = [999_999, 1_999_999_999, 2_147_483_647] as const;

/** Whether a value would read as an id of a stored row (a small positive whole number). */
function looksLikeStoredId(value: unknown): boolean {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^\+?0*\d{1,5}$/.test(text) && Number(text) > 0 && Number(text) < 900_000;
}

/** Numbers and number-like strings that overflow, go negative, float, or use exponents. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(2147483648, 2 ** 53, -1, 0, 1.5, 1e10, -2147483649, 1e308, Number.MAX_SAFE_INTEGER),
  fc.constantFrom('2147483648', '1e10', '1E3', '-1', '0', '1.5', '0x10', '9'.repeat(40), 'NaN', 'Infinity', ' ', ''),
  fc.double({ noNaN: true }).filter((n) => !looksLikeStoredId(n)),
  fc.bigInt({ min: 2n ** 31n, max: 2n ** 70n }).map((n) => n.toString()),
);

/** Strings with NUL characters, control characters, lone surrogates, RTL marks, emoji, or great length. */
export const hostileString = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', 'Ana\u0000', '\u0000\u0000\u0000', '\ud800', '\udfff', '\u202e', '💥', '%00', '%', '%zz', '../..', '\\', "'; drop table users; --"),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.integer({ min: 60, max: 40_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('2024-13-45', '2023-02-29', '0000-00-00', '9999-99-99', 'data:,%E0%A4%A', 'data:image/png;base64', 'data:text/plain,%'),
);

/** Plausible values: they let a request get past the first field and fail (or not) on another one. */
const plausibleValue = fc.oneof(
  fc.constantFrom('ab', 'Ana Silva', 'a@b.co', 'secret-pass', '5511999990000', '#123456', 'open', 'pending', 'closed'),
  fc.constantFrom('admin', 'user', 'simulator', 'baileys', 'enabled', 'disabled', 'image', 'true', 'false', '2024-01-01'),
  fc.constantFrom(...MISSING_IDS),
  fc.boolean(),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: plausibleValue },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, {}, []) },
);

/** Any JSON value, hostile at the leaves: nested objects and arrays included. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor'), tie('value'), { maxKeys: 3 }) },
  ),
})).value;

/** A body: usually an object of the routes' field names holding hostile values; sometimes not an object at all. */
export const hostileBody = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileJson, { maxKeys: 6 }) },
  { weight: 1, arbitrary: hostileJson },
);

/** A query string value: a hostile scalar, or a list (the key repeated). */
const queryValue = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(hostileNumber, hostileString, plausibleValue).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('[2147483648]', '[1e10]', '[-1]', '["\\u0000"]', '[1,', '{}', 'null', '[[1]]') },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, hostileNumber.map(String)), { minLength: 2, maxLength: 3 }) },
);

export const hostileQuery = fc.dictionary(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 })), queryValue, {
  maxKeys: 4,
});

export function queryString(query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of [value].flat()) params.append(key, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * A path parameter: hostile numbers, hostile strings (percent-encoded), a few raw malformed escapes, and
 * well-formed ids of rows that do not exist. Never the id of a fixture row.
 */
export const hostileParam = fc.oneof(
  { weight: 3, arbitrary: hostileNumber.map((n) => encodeURIComponent(String(n))) },
  { weight: 3, arbitrary: hostileString.map((s) => encodeURIComponent(wellFormed(s))) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', '%E0%A4%A', '%ff%fe', '..', '.') },
  { weight: 1, arbitrary: fc.constantFrom(...MISSING_IDS).map(String) },
).filter((segment) => segment !== '' && !looksLikeStoredId(safeDecode(segment)));

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The string with lone surrogates replaced, so it can be percent-encoded. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
