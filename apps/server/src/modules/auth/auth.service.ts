import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  REFRESH_TOKEN_TTL_SECONDS,
  type AuthResponse,
  type LoginInput,
  type MfaSignInInput,
  type SignupInput,
} from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import type { SettingsService } from '../settings/settings.service.js';
import { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { AccessTokens } from './access-token.js';
import type { AuthUser } from './auth-user.js';
import { LoginLimits } from './login-limits.js';
import type { MfaService } from './mfa.service.js';
import { hashPassword, verifyPassword } from './password.js';
import { RateLimitsRepository } from './rate-limits.repository.js';
import { RefreshTokensRepository, type RefreshTokenRecord } from './refresh-tokens.repository.js';

export interface IssuedSession extends AuthResponse {
  /** Value of the httpOnly refresh cookie. */
  refreshToken: string;
}

/** The one answer of sign-up, whether the e-mail was free or not, so it never tells which e-mails exist. */
export interface SignupAnswer {
  message: string;
}

export const SIGNUP_ANSWER: SignupAnswer = { message: 'If the e-mail was free, your account is ready: sign in.' };

/** A sign-in that ended (logout, reuse of a rotated refresh token): its sockets are closed. */
export interface SessionEnded {
  userId: number;
  sessionId: string;
}

const SIGNUP_WINDOW_SECONDS = 3600;
/** A rotated refresh token presented this soon after its rotation is a race between tabs, not a reuse. */
export const ROTATION_GRACE_MS = 10_000;

// Checked against when the e-mail is unknown, so both failures take as long.
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

const sessionExpired = () => new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');

export class AuthService {
  private readonly ended = new EventEmitter();

  constructor(
    private readonly db: Database,
    private readonly tokens: AccessTokens,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
    private readonly signupLimitPerHour: number,
    private readonly mfa: MfaService,
  ) {}

  /** Called when a sign-in ends (logout, or a reused refresh token ended its family). */
  onSessionEnded(listener: (e: SessionEnded) => void): () => void {
    this.ended.on('ended', listener);
    return () => this.ended.off('ended', listener);
  }

  async login(input: LoginInput, ip: string): Promise<IssuedSession> {
    // Counted before the password is checked; a full window answers 429 whatever the password (login-limits.ts).
    const attempt = await new LoginLimits(this.db).begin(ip, input.email);
    const record = await new UsersRepository(this.db).findRecordByEmail(input.email);
    const valid = await verifyPassword(record?.passwordHash ?? (await unknownUserHash()), input.password);
    if (!record || !valid) {
      // Recorded with the e-mail tried (issue 37 §2); never the password.
      await this.db.transaction((tx) =>
        audit.record(tx, { action: 'auth.login_failed', actor: { kind: 'anonymous', userName: input.email }, ip, targetType: 'user', targetId: record?.id ?? null, after: { reason: record ? 'password' : 'unknown-email' } }),
      );
      throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid e-mail or password.');
    }
    await attempt.succeeded();
    // Two-factor sign-in (issue 37 §1): the password step is proven by a short-lived token; POST /api/auth/mfa ends it.
    if (record.mfaEnabledAt) {
      throw new AppError('ERR_MFA_REQUIRED', undefined, { mfaToken: await this.mfa.tokens.sign(record.id) });
    }
    return this.issue(record.id, randomUUID(), { ip, method: 'password' });
  }

  /**
   * The sign-in's second step: the mfaToken of the password step and a code (of the app, or a recovery code); then
   * the same session as a login. A token of a user whose password changed since, or whose second factor is off, fails.
   */
  async completeMfaSignIn(input: MfaSignInInput, ip: string): Promise<IssuedSession> {
    const claims = await this.mfa.tokens.verify(input.mfaToken);
    const tokenInvalid = () => new AppError('ERR_MFA_TOKEN_INVALID');
    if (!claims) throw tokenInvalid();
    const record = await new UsersRepository(this.db).findRecordById(claims.userId);
    if (!record?.mfaEnabledAt) throw tokenInvalid();
    if (record.tokensValidAfter && claims.issuedAt * 1000 < record.tokensValidAfter.getTime()) throw tokenInvalid();
    try {
      await this.mfa.checkSignInCode(record.id, input.code, ip);
    } catch (err) {
      // A wrong second-factor code is a failed sign-in too (issue 37 §2).
      if (err instanceof AppError && err.code === 'ERR_INVALID_MFA_CODE') {
        await this.db.transaction((tx) =>
          audit.record(tx, { action: 'auth.login_failed', actor: { kind: 'anonymous', userName: record.email }, ip, targetType: 'user', targetId: record.id, after: { reason: 'mfa-code' } }),
        );
      }
      throw err;
    }
    return this.issue(record.id, randomUUID(), { ip, method: 'mfa' });
  }

  /** Whether anyone may create an account (the setting userCreation). */
  async signupOpen(): Promise<boolean> {
    return (await this.settings.value('userCreation')) !== 'disabled';
  }

  /**
   * Creates a 'user' profile. A taken e-mail gets the very same answer and changes nothing, so sign-up
   * never tells which e-mails have an account.
   */
  async signup(input: SignupInput, ip: string): Promise<SignupAnswer> {
    if (!(await this.signupOpen())) {
      throw new AppError('ERR_USER_CREATION_DISABLED', 'User creation was disabled by administrator.');
    }
    const limits = new RateLimitsRepository(this.db);
    const key = `signup:${ip}`;
    if ((await limits.current(key)) >= this.signupLimitPerHour) {
      throw new AppError('ERR_RATE_LIMITED', 'Too many sign-ups. Try again later.');
    }
    await limits.hit(key, SIGNUP_WINDOW_SECONDS);
    if (await new UsersRepository(this.db).emailTaken(input.email)) {
      await hashPassword(input.password); // takes as long as a real sign-up
      return SIGNUP_ANSWER;
    }
    try {
      await this.users.create({ ...input, profile: 'user', queueIds: [] });
    } catch (err) {
      // A concurrent sign-up with the same e-mail won: same answer.
      if (!(err instanceof AppError && err.code === 'ERR_EMAIL_ALREADY_EXISTS')) throw err;
    }
    return SIGNUP_ANSWER;
  }

  /**
   * Rotates the refresh token: the old one stops working at once, the new one keeps the family. Presenting a
   * token that was already rotated (revoked) means it leaked: the whole family is revoked.
   */
  async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
    const repo = new RefreshTokensRepository(this.db);
    const record = await this.matchingRefreshToken(repo, refreshToken);
    if (!record) throw sessionExpired();
    if (record.revokedAt) {
      // Two tabs share the cookie: one that sends the old token just after the other rotated it is a race, not
      // a theft, while its family lives on and the rotation is seconds old. Anything later ends the sign-in.
      const race =
        Date.now() - record.revokedAt.getTime() < ROTATION_GRACE_MS && (await repo.familyIsLive(record.familyId, record.userId));
      if (!race) await this.endSession(repo, record);
      throw sessionExpired();
    }
    if (record.expiresAt.getTime() <= Date.now()) throw sessionExpired();
    // False when a concurrent refresh with the same token won the race: that one keeps the session.
    if (!(await repo.revoke(record.id))) throw sessionExpired();
    const user = await new UsersRepository(this.db).findRecordById(record.userId);
    if (!user) throw sessionExpired();
    return this.issue(user.id, record.familyId);
  }

  /** Ends the sign-in of the refresh token (its whole family) and closes its sockets. */
  async logout(refreshToken: string | undefined): Promise<void> {
    const repo = new RefreshTokensRepository(this.db);
    const record = await this.matchingRefreshToken(repo, refreshToken);
    if (record) await this.endSession(repo, record);
  }

  /**
   * The user behind an access token, fresh from the database. A token issued before the user's password
   * changed is refused, unless its sign-in is one that the change kept (the one that changed it).
   */
  async authenticate(
    accessToken: string,
  ): Promise<
    | {
        user: AuthUser;
        expiresAt: number;
        validAfter: number | null;
        /** An admin who must turn on two-factor sign-in first (mfaRequiredForAdmins): only its set-up routes answer. */
        mfaSetupRequired: boolean;
      }
    | { error: 'expired' | 'invalid' }
  > {
    const result = await this.tokens.verify(accessToken);
    if (!result.ok) return { error: result.reason };
    const { userId, sessionId, issuedAt, expiresAt } = result.claims;
    const record = await new UsersRepository(this.db).findRecordById(userId);
    if (!record) return { error: 'invalid' };
    // iat has whole seconds: a token of the same second as the change is checked against its sign-in.
    if (record.tokensValidAfter && issuedAt * 1000 < record.tokensValidAfter.getTime()) {
      const kept = sessionId ? await new RefreshTokensRepository(this.db).familyIsLive(sessionId, userId) : false;
      if (!kept) return { error: 'invalid' };
    }
    const user: AuthUser = { id: record.id, name: record.name, email: record.email, profile: record.profile, sessionId, mfaEnabled: record.mfaEnabledAt !== null };
    return {
      user,
      expiresAt: expiresAt * 1000,
      validAfter: record.tokensValidAfter?.getTime() ?? null,
      mfaSetupRequired: await this.mfa.setupRequired(user),
    };
  }

  /** When the user's password last changed (ms), null when never; undefined when the user is gone. */
  async tokensValidAfter(userId: number): Promise<number | null | undefined> {
    const record = await new UsersRepository(this.db).findRecordById(userId);
    return record ? (record.tokensValidAfter?.getTime() ?? null) : undefined;
  }

  private async endSession(repo: RefreshTokensRepository, record: RefreshTokenRecord): Promise<void> {
    await repo.revokeFamily(record.familyId);
    this.ended.emit('ended', { userId: record.userId, sessionId: record.familyId } satisfies SessionEnded);
  }

  /** The stored token whose secret matches the cookie, revoked or expired or not; null when none. */
  private async matchingRefreshToken(repo: RefreshTokensRepository, refreshToken: string | undefined) {
    if (!refreshToken) return null;
    const [id, secret] = refreshToken.split('.');
    if (!id || !secret || !/^[0-9a-f-]{36}$/.test(id)) return null;
    const record = await repo.find(id);
    if (!record) return null;
    const expected = Buffer.from(record.tokenHash, 'hex');
    const given = sha256(secret);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return record;
  }

  /** A new refresh token (and access token); a sign-in (`signIn`) is recorded in the audit log in the same transaction. */
  private async issue(userId: number, familyId: string, signIn?: { ip: string; method: 'password' | 'mfa' }): Promise<IssuedSession> {
    const id = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    const user = await this.db.transaction(async (tx) => {
      await new RefreshTokensRepository(tx).insert({
        id,
        userId,
        familyId,
        tokenHash: sha256(secret).toString('hex'),
        expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      });
      const found = await new UsersRepository(tx).findDto(userId);
      if (found && signIn) {
        await audit.record(tx, {
          action: 'auth.login',
          actor: { kind: 'user', userId, userName: found.name },
          ip: signIn.ip,
          targetType: 'user',
          targetId: userId,
          after: { method: signIn.method },
        });
      }
      return found;
    });
    if (!user) throw sessionExpired();
    const session: IssuedSession = { token: await this.tokens.sign(userId, familyId), user, refreshToken: `${id}.${secret}` };
    if (await this.mfa.setupRequired({ profile: user.profile, mfaEnabled: user.mfaEnabled })) session.mfaSetupRequired = true;
    return session;
  }
}
