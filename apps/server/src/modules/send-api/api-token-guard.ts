import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { bearerToken } from '../../http/auth-hook.js';
import { RateLimitsRepository } from '../auth/rate-limits.repository.js';
import type { SettingsService } from '../settings/settings.service.js';
import { audit } from '../audit/audit.js';

export interface ApiTokenLimits {
  /** Calls one token may make per minute. */
  perTokenPerMinute: number;
  /** Wrong tokens one address may try per minute. */
  wrongPerAddressPerMinute: number;
}

export const API_TOKEN_LIMITS: ApiTokenLimits = { perTokenPerMinute: 120, wrongPerAddressPerMinute: 20 };

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function tokenOf(request: FastifyRequest): string | null {
  const body = request.body as { token?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.token === 'string' && body.token) return body.token;
  const query = request.query as { token?: unknown } | undefined;
  if (query && typeof query.token === 'string' && query.token) return query.token;
  return bearerToken(request);
}

/**
 * The send API's guard (routes with access `apiToken`), once the body is parsed and before the route's schemas
 * validate it (a call without the token is a 401 whatever its body): an admin signed in by the auth
 * hook passes; otherwise the token (body `token`, `?token=` or `Authorization: Bearer`) must be the setting
 * userApiToken — missing or wrong: 401 ERR_INVALID_API_TOKEN, never a 5xx. Calls are limited per token and wrong
 * tokens per address (429 ERR_RATE_LIMITED), in the database so every process shares the counts.
 */
export function registerApiTokenGuard(app: FastifyInstance, db: Database, settings: SettingsService, limits = API_TOKEN_LIMITS): void {
  app.addHook('preValidation', async (request, reply) => {
    if (request.is404 || request.routeOptions.config?.access !== 'apiToken') return;
    const counters = new RateLimitsRepository(db);
    let key: string;
    if (request.apiAuthorized && request.authUser) {
      key = `api:user:${request.authUser.id}`;
    } else {
      const given = tokenOf(request);
      const expected = await settings.value('userApiToken');
      const valid = !!given && !!expected && timingSafeEqual(digest(given), digest(expected));
      if (!valid) {
        // Guesses count against the address; a call without any token guesses nothing.
        const wrong = given ? await counters.hit(`api:wrong:${request.ip}`, 60) : 0;
        if (wrong > limits.wrongPerAddressPerMinute) {
          void reply.header('retry-after', '60');
          throw new AppError('ERR_RATE_LIMITED', 'Too many wrong API tokens: wait a minute.');
        }
        throw new AppError('ERR_INVALID_API_TOKEN', given ? 'The API token is wrong.' : 'The API token is missing: send it as `token` or `Authorization: Bearer <token>`.');
      }
      request.apiAuthorized = true;
      key = `api:token:${digest(given).toString('hex').slice(0, 24)}`;
    }
    if ((await counters.hit(key, 60)) > limits.perTokenPerMinute) {
      void reply.header('retry-after', '60');
      throw new AppError('ERR_RATE_LIMITED', `At most ${limits.perTokenPerMinute} calls a minute.`);
    }
    // Every call made with the API token is recorded (issue 37 §2); what it changes is recorded by the services too.
    if (!request.authUser) {
      await db.transaction((tx) =>
        audit.record(tx, { action: 'api_token.use', targetType: 'route', targetId: `${request.method} ${request.routeOptions.url ?? request.url}` }),
      );
    }
  });
}
