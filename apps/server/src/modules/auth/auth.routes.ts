import { LoginInput, REFRESH_TOKEN_TTL_SECONDS, SignupInput } from '@wadesk/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { parse } from '../../http/validate.js';
import type { AuthService, IssuedSession } from './auth.service.js';

export const REFRESH_COOKIE = 'jrt';
/**
 * No Path attribute: the browser scopes the cookie to the folder of the URL it called (RFC 6265 §5.1.4), `/api/auth`
 * for `/api/auth/login`, and `/desk/api/auth` behind a proxy that serves the API under `/desk` and strips it, so the
 * cookie reaches refresh_token and logout either way (a fixed `/api/auth` never matched the proxy's URLs).
 */
const COOKIE_PATH = undefined;

export function authRoutes(app: FastifyInstance, auth: AuthService, cookieSecure: boolean): void {
  const setCookie = (reply: FastifyReply, session: IssuedSession) =>
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: cookieSecure,
      path: COOKIE_PATH,
      maxAge: REFRESH_TOKEN_TTL_SECONDS,
    });
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
  const publicRoute = { config: { access: 'public' as const } };

  app.post('/api/auth/login', publicRoute, async (request, reply) => {
    const session = await auth.login(parse(LoginInput, request.body), request.ip);
    setCookie(reply, session);
    return { token: session.token, user: session.user };
  });

  app.post('/api/auth/refresh_token', publicRoute, async (request, reply) => {
    try {
      const session = await auth.refresh(request.cookies[REFRESH_COOKIE]);
      setCookie(reply, session);
      return { token: session.token, user: session.user };
    } catch (err) {
      clearCookie(reply);
      throw err;
    }
  });

  app.delete('/api/auth/logout', publicRoute, async (request, reply) => {
    await auth.logout(request.cookies[REFRESH_COOKIE]);
    clearCookie(reply);
    return reply.status(204).send();
  });

  // Whether the login page offers sign-up (issue 33 item 19): the userCreation setting.
  app.get('/api/auth/signup', publicRoute, async () => ({ open: await auth.signupOpen() }));

  app.post('/api/auth/signup', publicRoute, async (request, reply) => {
    // The same answer whether the e-mail was free or not (see AuthService.signup).
    const answer = await auth.signup(parse(SignupInput, request.body), request.ip);
    return reply.status(201).send(answer);
  });
}
