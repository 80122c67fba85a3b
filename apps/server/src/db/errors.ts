function pgCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/** A unique constraint refused the write (23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (pgCode(err) !== '23505') return false;
  if (!constraint) return true;
  const e = err as { constraint?: string; cause?: { constraint?: string }; message?: string };
  const name = e.constraint ?? e.cause?.constraint ?? '';
  return name === constraint || (e.message ?? '').includes(constraint);
}

/** A foreign key refused the write (23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return pgCode(err) === '23503';
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
