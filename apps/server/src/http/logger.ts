import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Properties of an error that may carry what users typed (query parameters: password hashes, messages). */
const ERROR_FIELDS_DROPPED = ['params', 'parameters', 'query'];

/** Drizzle writes a failed statement's parameters into its message (and so its stack): "\nparams: a,b,c". */
const PARAMS_LINE = /\nparams: [^\n]*/g;

/** An error as logged: pino's standard fields, without the query's parameters, on the error and its causes. */
export function serializeError(err: unknown): unknown {
  const serialized = stdSerializers.err(err as Error) as unknown as Record<string, unknown> | undefined;
  if (!serialized || typeof serialized !== 'object') return serialized;
  const clean = (value: unknown, depth: number): unknown => {
    if (!value || typeof value !== 'object' || depth > 5) return value;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const field of ERROR_FIELDS_DROPPED) {
      if (field in copy) copy[field] = '[Redacted]';
    }
    for (const field of ['message', 'stack']) {
      if (typeof copy[field] === 'string') copy[field] = (copy[field] as string).replace(PARAMS_LINE, '\nparams: [Redacted]');
    }
    if (copy.cause) copy.cause = clean(copy.cause, depth + 1);
    return copy;
  };
  return clean(serialized, 0);
}

/**
 * The server's log options: secrets never reach the log. Query parameters of failed statements (password
 * hashes, message bodies), credentials in headers and fields named like a password or a token are redacted.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { err: serializeError, error: serializeError },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'password',
        'passwordHash',
        'token',
        '*.password',
        '*.passwordHash',
        '*.token',
        '*.refreshToken',
      ],
      censor: '[Redacted]',
    },
  };
}

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return stream ? pino(loggerOptions(level), stream) : pino(loggerOptions(level));
}
