import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActorKind } from '@wadesk/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Who made a change the audit log records (decision 0044). */
export interface AuditActor {
  kind: AuditActorKind;
  userId?: number | null;
  /** The user's name; for a failed sign-in, the e-mail tried. */
  userName?: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { kind: 'system' };

/** The request a service is running for, if any: the audit log reads its actor and address from it. */
const requests = new AsyncLocalStorage<FastifyRequest>();

/**
 * Keeps the request in scope while its hooks and handler run, so that `audit.record` finds who acts and from where
 * without every service method taking them (decision 0044). Entered again before validation: parsing the body runs
 * in the socket's callbacks, which lose the scope (as @fastify/request-context does).
 */
export function registerAuditContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => requests.run(request, done));
  app.addHook('preValidation', (request, _reply, done) => requests.run(request, done));
  app.addHook('preHandler', (request, _reply, done) => requests.run(request, done));
}

/** The actor of a request: its signed-in user, else the send API's token, else nobody signed in. */
export function actorOfRequest(request: FastifyRequest): AuditActor {
  if (request.authUser) return { kind: 'user', userId: request.authUser.id, userName: request.authUser.name };
  if (request.apiAuthorized) return { kind: 'token' };
  return { kind: 'anonymous' };
}

/** The actor and address of the request in scope, or the desk itself (a job, the startup). */
export function currentAuditScope(): { actor: AuditActor; ip: string | null } {
  const request = requests.getStore();
  if (!request) return { actor: SYSTEM_ACTOR, ip: null };
  return { actor: actorOfRequest(request), ip: request.ip ?? null };
}

/** Runs `work` as if for `request` (tests, and code that leaves the request's scope, such as a stream's callback). */
export function withAuditRequest<T>(request: FastifyRequest, work: () => T): T {
  return requests.run(request, work);
}
