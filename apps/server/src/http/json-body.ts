import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

/**
 * How deep arrays and objects may nest in a JSON body. The desk's own bodies go 4 levels deep, Meta's webhooks about
 * 8; 100,000 levels parse fine but overflow the stack of whatever walks them next (JSON.stringify for a job, zod).
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** Whether the arrays and objects of a JSON text nest deeper than `limit` (one pass, brackets in strings skipped). */
export function jsonDepthOver(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPENERS.has(c)) {
      depth += 1;
      if (depth > limit) return true;
    } else if (CLOSERS.has(c)) {
      depth -= 1;
    }
  }
  return false;
}

function refusal(message: string): AppError {
  return new AppError('ERR_VALIDATION', message, { issues: [{ path: '', message }] });
}

const TOO_DEEP = `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`;

/** A JSON text parsed, or a 400 `ERR_VALIDATION` when it nests too deep or is not JSON (raw-body webhooks). */
export function parseJsonText(text: string): unknown {
  if (jsonDepthOver(text)) throw refusal(TOO_DEEP);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refusal('The body is not JSON.');
  }
}

/**
 * The app's `application/json` parser: Fastify's own (prototype poisoning refused, empty body a 400) behind the
 * depth bound, so every route's body is refused with 400 `ERR_VALIDATION` before it is parsed when it nests too
 * deep. Scopes that keep the raw body (signed webhooks) parse it with `parseJsonText`.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthOver(body as string)) {
      done(refusal(TOO_DEEP), undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}
