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
 * Query parameters whose value is a credential: the send API's `?token=`, Meta's `hub.verify_token`, OAuth's
 * `access_token`, and anything named like a token, secret, password, signature, key or session.
 */
const SENSITIVE_QUERY_NAME = /token|secret|passw|pwd|jwt|auth|signature|credential|session|cookie|api[-_.]?key|^(key|sig|code)$/i;
/** A JSON Web Token, whatever the parameter carrying it is called. */
const JWT_VALUE = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A URL (or path with its query) fit for the log: the value of each query parameter that is a credential becomes
 * `[Redacted]`; the path and the other parameters are kept as they came.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hash = url.indexOf('#', at);
  const query = url.slice(at + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = decoded(pair.slice(0, eq));
      return SENSITIVE_QUERY_NAME.test(name) || JWT_VALUE.test(decoded(pair.slice(eq + 1))) ? `${pair.slice(0, eq)}=[Redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${redacted}`;
}

/** A request as logged (Fastify's fields), its URL without the credentials of its query. */
function serializeRequest(req: unknown): unknown {
  if (!req || typeof req !== 'object') return req;
  const r = req as { method?: string; url?: string; host?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } };
  return {
    method: r.method,
    url: typeof r.url === 'string' ? redactUrl(r.url) : r.url,
    host: r.host ?? r.hostname,
    remoteAddress: r.ip,
    remotePort: r.socket?.remotePort,
  };
}

/**
 * The server's log options: secrets never reach the log. Query parameters of failed statements (password
 * hashes, message bodies), credentials in headers, in a request URL's query and fields named like a password or a
 * token are redacted.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { err: serializeError, error: serializeError, req: serializeRequest, url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url) },
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
