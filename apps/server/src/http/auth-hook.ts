import { isAdmin } from '@wadesk/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import { AppError } from './app-error.js';

export type RouteAccess = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every /api route is 'user' unless it says otherwise. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/** The signed-in user of a route that is not public. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');
  return request.authUser;
}

/**
 * Authenticates every /api route and checks its role, secure by default:
 * missing token → 401 ERR_SESSION_EXPIRED (client logs out); expired or invalid → 403 ERR_SESSION_EXPIRED
 * (client refreshes and retries once); a user on an admin route → 403 ERR_NO_PERMISSION.
 */
export function registerAuthHook(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api')) return;
    const access: RouteAccess = request.routeOptions.config?.access ?? 'user';
    if (access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');
    const result = await auth.authenticate(token);
    if ('error' in result) {
      throw new AppError('ERR_SESSION_EXPIRED', 'Invalid or expired token. Refresh it.', { status: 403 });
    }
    request.authUser = result.user;
    if (access === 'admin' && !isAdmin(result.user)) {
      throw new AppError('ERR_NO_PERMISSION', "You don't have permission to access this resource.");
    }
  });
}
