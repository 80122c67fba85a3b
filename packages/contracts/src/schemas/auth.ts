import { z } from 'zod';
import { boundedString, emailField, hasNoNulCharacter, INPUT_MESSAGES, MESSAGES, passwordField } from '../validation.js';
import { UserDto } from './users.js';

export const LoginInput = z.object({
  email: emailField,
  password: z
    .string({ error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(200, MESSAGES.tooLong)
    .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const SignupInput = z.object({
  name: boundedString(2, 50),
  email: emailField,
  password: passwordField,
});
export type SignupInput = z.infer<typeof SignupInput>;

/** Answer of login and refresh_token. */
export const AuthResponse = z
  .object({
    token: z.string().meta({ description: 'The access token (15 minutes): `Authorization: Bearer <token>`.' }),
    user: UserDto,
    mfaSetupRequired: z
      .boolean()
      .optional()
      .meta({
        description:
          'true: an admin signed in while the setting mfaRequiredForAdmins is enabled and has not turned on two-factor sign-in; every other route answers 403 ERR_MFA_SETUP_REQUIRED until POST /api/auth/mfa/enable.',
      }),
  })
  .meta({ id: 'AuthSession' });
export type AuthResponse = z.infer<typeof AuthResponse>;

/** GET /api/auth/signup: whether the login page offers sign-up (the setting userCreation). */
export const SignupOpenResponse = z.object({ open: z.boolean() });
export type SignupOpenResponse = z.infer<typeof SignupOpenResponse>;

/** Access token lifetime in seconds (15 minutes). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Refresh token lifetime in seconds (7 days). */
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Failed logins allowed per IP and e-mail within the window. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_SECONDS = 5 * 60;

/** Seconds the mfaToken of a sign-in's password step lives (the second step must come within them). */
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;
/** Recovery codes handed out when two-factor sign-in is turned on. */
export const MFA_RECOVERY_CODE_COUNT = 10;

/** A six-digit code of the authenticator app, or a recovery code (spaces and dashes are ignored). */
export const mfaCodeField = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(40, MESSAGES.tooLong)
  .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter)
  .meta({ description: 'The six-digit code of the authenticator app, or one of the recovery codes.' });

/** POST /api/auth/mfa/setup: the secret to add to an authenticator app (not yet on). */
export const MfaSetupResponse = z
  .object({
    uri: z.string().meta({ description: 'otpauth://totp/… (RFC 6238: SHA-1, 6 digits, 30 s), the secret inside.' }),
    qrCode: z.string().meta({ description: 'The same URI as a QR code: data:image/png;base64,…' }),
  })
  .meta({ id: 'MfaSetup' });
export type MfaSetupResponse = z.infer<typeof MfaSetupResponse>;

/** POST /api/auth/mfa/enable: a code of the app just set up. */
export const MfaEnableInput = z.object({ code: mfaCodeField });
export type MfaEnableInput = z.infer<typeof MfaEnableInput>;

/** The recovery codes, shown once: each signs in once instead of a code of the app. */
export const MfaEnableResponse = z
  .object({ recoveryCodes: z.array(z.string()).length(MFA_RECOVERY_CODE_COUNT) })
  .meta({ id: 'MfaRecoveryCodes' });
export type MfaEnableResponse = z.infer<typeof MfaEnableResponse>;

/** POST /api/auth/mfa/disable: the password and a code (of the app, or a recovery code). */
export const MfaDisableInput = z.object({
  password: LoginInput.shape.password,
  code: mfaCodeField,
});
export type MfaDisableInput = z.infer<typeof MfaDisableInput>;

/** POST /api/auth/mfa: the sign-in's second step. */
export const MfaSignInInput = z.object({
  mfaToken: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(2000, MESSAGES.tooLong),
  code: mfaCodeField,
});
export type MfaSignInInput = z.infer<typeof MfaSignInInput>;
