import { IdParams, MessageAnswer, MfaDisableInput, MfaEnableInput, MfaEnableResponse, MfaSetupResponse } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth-hook.js';
import type { MfaService } from './mfa.service.js';

const tags = ['Auth'];

/** Two-factor sign-in of the signed-in user, and an admin's reset of someone's (issue 37 §1, decision 0043). */
export function mfaRoutes(http: FastifyInstance, mfa: MfaService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();
  // Open to an admin who must still turn it on (mfaRequiredForAdmins): they are the way out of that state.
  const duringSetup = { mfaSetup: true };

  app.post(
    '/api/auth/mfa/setup',
    {
      config: duringSetup,
      schema: {
        operationId: 'setupMfa',
        summary: 'A new secret for an authenticator app (otpauth:// URI and its QR code), not on until enabled; again: a new one',
        tags,
        response: { 200: MfaSetupResponse },
      },
    },
    async (request) => mfa.setup(currentUser(request)),
  );

  app.post(
    '/api/auth/mfa/enable',
    {
      config: duringSetup,
      schema: {
        operationId: 'enableMfa',
        summary: 'Turn two-factor sign-in on with a code of the app: answers 10 single-use recovery codes, shown this once',
        tags,
        body: MfaEnableInput,
        response: { 200: MfaEnableResponse },
      },
    },
    async (request) => mfa.enable(currentUser(request), request.body.code, request.ip),
  );

  app.post(
    '/api/auth/mfa/disable',
    {
      schema: {
        operationId: 'disableMfa',
        summary: 'Turn two-factor sign-in off with the password and a code (of the app, or a recovery code)',
        tags,
        body: MfaDisableInput,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      await mfa.disable(currentUser(request), request.body.password, request.body.code, request.ip);
      return { message: 'Two-factor sign-in is off' };
    },
  );

  app.delete(
    '/api/users/:id/mfa',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'resetUserMfa',
        summary: "Turn a user's two-factor sign-in off (a lost phone): they sign in with the password and may set it up again",
        tags: ['Users'],
        params: IdParams,
        response: { 200: MessageAnswer },
      },
    },
    async (request) => {
      await mfa.reset(request.params.id);
      return { message: 'Two-factor sign-in reset' };
    },
  );
}
