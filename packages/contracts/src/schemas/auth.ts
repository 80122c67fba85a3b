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
  .object({ token: z.string().meta({ description: 'The access token (15 minutes): `Authorization: Bearer <token>`.' }), user: UserDto })
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
