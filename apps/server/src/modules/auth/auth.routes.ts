import { AuthResponse, LoginInput, MessageAnswer, MfaSignInInput, REFRESH_TOKEN_TTL_SECONDS, SignupInput, SignupOpenResponse } from '@wadesk/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService, IssuedSession } from './auth.service.js';

export const REFRESH_COOKIE = 'jrt';
/**
 * No Path attribute: the browser scopes the cookie to the folder of the URL it called (RFC 6265 §5.1.4), `/api/auth`
 * for `/api/auth/login`, and `/desk/api/auth` behind a proxy that serves the API under `/desk` and strips it, so the
 * cookie reaches refresh_token and logout either way (a fixed `/api/auth` never matched the proxy's URLs).
 */
const COOKIE_PATH = undefined;

const tags = ['Auth'];
const REFRESH_COOKIE_NOTE = `The refresh token travels in the httpOnly cookie \`${REFRESH_COOKIE}\` (7 days, rotated on each use).`;

export function authRoutes(http: FastifyInstance, auth: AuthService, cookieSecure: boolean): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  const setCookie = (reply: FastifyReply, session: IssuedSession) =>
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: cookieSecure,
      path: COOKIE_PATH,
      maxAge: REFRESH_TOKEN_TTL_SECONDS,
    });
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
  const config = { access: 'public' as const };
  const answer = ({ token, user, mfaSetupRequired }: IssuedSession) => (mfaSetupRequired ? { token, user, mfaSetupRequired } : { token, user });

  app.post(
    '/api/auth/login',
    {
      config,
      schema: {
        operationId: 'login',
        summary: 'Sign in with e-mail and password: an access token, the user, and the refresh cookie',
        description: `${REFRESH_COOKIE_NOTE} With two-factor sign-in on, the right password answers 401 \`{ error: 'ERR_MFA_REQUIRED', mfaToken }\` instead: send the token and a code to POST /api/auth/mfa within 5 minutes.`,
        tags,
        body: LoginInput,
        response: { 200: AuthResponse },
      },
    },
    async (request, reply) => {
      const session = await auth.login(request.body, request.ip);
      setCookie(reply, session);
      return answer(session);
    },
  );

  // Two-factor sign-in's second step (issue 37 §1): the mfaToken proves the password; the same answer as login.
  app.post(
    '/api/auth/mfa',
    {
      config,
      schema: {
        operationId: 'completeMfaSignIn',
        summary: "Sign in's second step: the mfaToken of the password step and a code of the authenticator app (or a recovery code, once)",
        description: `${REFRESH_COOKIE_NOTE} A code is accepted once; wrong codes are limited like passwords (per account and per address).`,
        tags,
        body: MfaSignInInput,
        response: { 200: AuthResponse },
      },
    },
    async (request, reply) => {
      const session = await auth.completeMfaSignIn(request.body, request.ip);
      setCookie(reply, session);
      return answer(session);
    },
  );

  app.post(
    '/api/auth/refresh_token',
    {
      config,
      schema: {
        operationId: 'refreshToken',
        summary: 'A new access token from the refresh cookie, which is rotated',
        description: REFRESH_COOKIE_NOTE,
        tags,
        response: { 200: AuthResponse },
      },
    },
    async (request, reply) => {
      try {
        const session = await auth.refresh(request.cookies[REFRESH_COOKIE]);
        setCookie(reply, session);
        return answer(session);
      } catch (err) {
        clearCookie(reply);
        throw err;
      }
    },
  );

  app.delete(
    '/api/auth/logout',
    {
      config,
      schema: {
        operationId: 'logout',
        summary: 'Sign out: the refresh token of the cookie is revoked and the cookie cleared',
        tags,
        response: { 204: z.null().meta({ description: 'Signed out' }) },
      },
    },
    async (request, reply) => {
      await auth.logout(request.cookies[REFRESH_COOKIE]);
      clearCookie(reply);
      return reply.status(204).send(null);
    },
  );

  // Whether the login page offers sign-up (issue 33 item 19): the userCreation setting.
  app.get(
    '/api/auth/signup',
    { config, schema: { operationId: 'getSignupOpen', summary: 'Whether the login page offers sign-up (setting userCreation)', tags, response: { 200: SignupOpenResponse } } },
    async () => ({ open: await auth.signupOpen() }),
  );

  app.post(
    '/api/auth/signup',
    {
      config,
      schema: {
        operationId: 'signup',
        summary: 'Create an attendant account, when userCreation is enabled; the same answer whether the e-mail was free or not',
        tags,
        body: SignupInput,
        response: { 201: MessageAnswer },
      },
    },
    async (request, reply) => {
      // The same answer whether the e-mail was free or not (see AuthService.signup).
      const answer = await auth.signup(request.body, request.ip);
      return reply.status(201).send(answer);
    },
  );
}
