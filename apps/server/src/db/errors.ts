/** The SQLSTATE of a PostgreSQL error (pg or PGlite), looking through wrappers such as Drizzle's query error. */
export function sqlStateOf(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** A unique constraint refused the write (23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (sqlStateOf(err) !== '23505') return false;
  if (!constraint) return true;
  const e = err as { constraint?: string; cause?: { constraint?: string }; message?: string };
  const name = e.constraint ?? e.cause?.constraint ?? '';
  return name === constraint || (e.message ?? '').includes(constraint);
}

/** A foreign key refused the write (23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return sqlStateOf(err) === '23503';
}

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'the database system is',
];

/**
 * The database cannot be reached (server down, restarting, network cut): a connection exception (SQLSTATE
 * class 08), an operator intervention (57P01–57P03), or a socket error of the driver, on the error or its cause.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | null, depth = 0; e && depth < 5; depth += 1) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_NODE_CODES.has(code) || code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
