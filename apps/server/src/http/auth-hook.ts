import { isAdmin, type AttendantTool } from '@wadesk/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { AuthUser } from '../modules/auth/auth-user.js';
import { AppError } from './app-error.js';
import { API_REFERENCE_PREFIX } from './route-schemas.js';

/**
 * `apiToken`: the send API (§7 auxiliary calls) — the setting userApiToken (body `token` or bearer) or a signed-in
 * admin; checked by send-api/api-token-guard.ts once the body is parsed.
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'apiToken';

/** A tool of the setting attendantTools, or the tools a route serves (outreach: SMS, voice calls, Instagram). */
export type RouteTool = AttendantTool | readonly AttendantTool[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every /api route is 'user' unless it says otherwise. */
    access?: RouteAccess;
    /**
     * The tool the route belongs to (issue 32): an attendant gets 403 ERR_NO_PERMISSION unless the setting
     * attendantTools lists it (several: one of them, the handler checks which); admins always pass.
     */
    tool?: RouteTool;
    /**
     * The route stays open to an admin who must still turn on two-factor sign-in (setting mfaRequiredForAdmins, issue
     * 37 §1); every other signed-in route answers them 403 ERR_MFA_SETUP_REQUIRED until it is on.
     */
    mfaSetup?: boolean;
  }
  interface FastifyRequest {
    authUser: AuthUser | null;
    /** The send API's proof was accepted (an admin's access token, or the API token). */
    apiAuthorized: boolean;
  }
  interface FastifyInstance {
    /** Every route with its resolved access, in registration order (the authorization test reads it). */
    routeTable: RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
  tool?: RouteTool;
}

/** Routes of the web app itself (index.html and static files): public by nature. */
const WEB_APP_ROUTES = new Set(['/', '/*']);

/** The interactive API reference's page and files (@fastify/swagger-ui registers them, without our config). */
function isApiReferenceRoute(url: string): boolean {
  return url === API_REFERENCE_PREFIX || url.startsWith(`${API_REFERENCE_PREFIX}/`);
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
 * Authenticates every route and checks its role, secure by default. Access is a property of the matched route
 * (`request.routeOptions.config.access`), never of the raw URL: `//api/users` and `/%61pi/users` reach the same
 * route as `/api/users` and get the same check. A route that declares nothing needs a signed-in user.
 * Missing token → 401 ERR_SESSION_EXPIRED (client logs out); expired or invalid → 403 ERR_SESSION_EXPIRED
 * (client refreshes and retries once); a user on an admin route, or on a route of a tool that the setting
 * attendantTools (read through `attendantTools`) does not open to attendants → 403 ERR_NO_PERMISSION.
 * Requests that match no route go to the not-found handler, which answers 404 and reaches no handler.
 */
export function registerAuthHook(
  app: FastifyInstance,
  auth: AuthService,
  attendantTools: () => Promise<ReadonlySet<AttendantTool>>,
): void {
  app.decorateRequest('authUser', null);
  app.decorateRequest('apiAuthorized', false);
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const declared = route.config?.access;
    const access: RouteAccess = declared ?? (WEB_APP_ROUTES.has(route.url) || isApiReferenceRoute(route.url) ? 'public' : 'user');
    route.config = { ...route.config, access };
    const tool = route.config?.tool;
    if (tool !== undefined && access !== 'user') throw new Error(`${route.url}: a tool's route is a signed-in user's route`);
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access, tool });
  });
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const access: RouteAccess = request.routeOptions.config?.access ?? 'user';
    if (access === 'public') return;
    const token = bearerToken(request);
    if (access === 'apiToken') {
      // A signed-in admin may call the send API; anything else is checked against the API token later.
      if (!token || token.split('.').length !== 3) return;
      const result = await auth.authenticate(token);
      if ('error' in result) return;
      if (!isAdmin(result.user)) throw new AppError('ERR_NO_PERMISSION', 'The send API takes the API token or an admin.');
      if (result.mfaSetupRequired) throw new AppError('ERR_MFA_SETUP_REQUIRED');
      request.authUser = result.user;
      request.apiAuthorized = true;
      return;
    }
    if (!token) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');
    const result = await auth.authenticate(token);
    if ('error' in result) {
      throw new AppError('ERR_SESSION_EXPIRED', 'Invalid or expired token. Refresh it.', { status: 403 });
    }
    request.authUser = result.user;
    if (result.mfaSetupRequired && !request.routeOptions.config?.mfaSetup) throw new AppError('ERR_MFA_SETUP_REQUIRED');
    if (access === 'admin' && !isAdmin(result.user)) {
      throw new AppError('ERR_NO_PERMISSION', "You don't have permission to access this resource.");
    }
    const tool = request.routeOptions.config?.tool;
    if (tool !== undefined && !isAdmin(result.user)) {
      const open = await attendantTools();
      if (![tool].flat().some((t) => open.has(t))) {
        throw new AppError('ERR_NO_PERMISSION', 'An administrator has not opened this tool to attendants.');
      }
    }
  });
}
