import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  type AuthResponse,
  type LoginInput,
  type SignupInput,
  type UserDto,
} from '@wadesk/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { SettingsService } from '../settings/settings.service.js';
import { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { AccessTokens } from './access-token.js';
import type { AuthUser } from './auth-user.js';
import { hashPassword, verifyPassword } from './password.js';
import { RateLimitsRepository } from './rate-limits.repository.js';
import { RefreshTokensRepository } from './refresh-tokens.repository.js';

export interface IssuedSession extends AuthResponse {
  /** Value of the httpOnly refresh cookie. */
  refreshToken: string;
}

const SIGNUP_WINDOW_SECONDS = 3600;
// Checked against when the e-mail is unknown, so both failures take as long.
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly tokens: AccessTokens,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
    private readonly signupLimitPerHour: number,
  ) {}

  private loginKey(ip: string, email: string): string {
    return `login:${ip}:${email}`;
  }

  async login(input: LoginInput, ip: string): Promise<IssuedSession> {
    const limits = new RateLimitsRepository(this.db);
    const key = this.loginKey(ip, input.email);
    if ((await limits.current(key)) >= LOGIN_FAILURE_LIMIT) {
      throw new AppError('ERR_RATE_LIMITED', 'Too many failed logins. Try again in a few minutes.');
    }
    const record = await new UsersRepository(this.db).findRecordByEmail(input.email);
    const valid = await verifyPassword(record?.passwordHash ?? (await unknownUserHash()), input.password);
    if (!record || !valid) {
      await limits.hit(key, LOGIN_FAILURE_WINDOW_SECONDS);
      throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid e-mail or password.');
    }
    await limits.clear(key);
    return this.issue(record.id);
  }

  async signup(input: SignupInput, ip: string): Promise<UserDto> {
    if ((await this.settings.value('userCreation')) === 'disabled') {
      throw new AppError('ERR_USER_CREATION_DISABLED', 'User creation was disabled by administrator.');
    }
    const limits = new RateLimitsRepository(this.db);
    const key = `signup:${ip}`;
    if ((await limits.current(key)) >= this.signupLimitPerHour) {
      throw new AppError('ERR_RATE_LIMITED', 'Too many sign-ups. Try again later.');
    }
    await limits.hit(key, SIGNUP_WINDOW_SECONDS);
    return this.users.create({ ...input, profile: 'user', queueIds: [] });
  }

  /** Rotates the refresh token: the old one stops working at once. */
  async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
    const repo = new RefreshTokensRepository(this.db);
    const record = await this.validRefreshToken(repo, refreshToken);
    if (!record || !(await repo.revoke(record.id))) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');
    const user = await new UsersRepository(this.db).findRecordById(record.userId);
    if (!user) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');
    return this.issue(user.id);
  }

  async logout(refreshToken: string | undefined): Promise<void> {
    const repo = new RefreshTokensRepository(this.db);
    const record = await this.validRefreshToken(repo, refreshToken);
    if (record) await repo.revoke(record.id);
  }

  /** The user behind an access token, fresh from the database; null when invalid. */
  async authenticate(accessToken: string): Promise<{ user: AuthUser } | { error: 'expired' | 'invalid' }> {
    const result = await this.tokens.verify(accessToken);
    if (!result.ok) return { error: result.reason };
    const record = await new UsersRepository(this.db).findRecordById(result.claims.userId);
    if (!record) return { error: 'invalid' };
    return { user: { id: record.id, name: record.name, email: record.email, profile: record.profile } };
  }

  private async validRefreshToken(repo: RefreshTokensRepository, refreshToken: string | undefined) {
    if (!refreshToken) return null;
    const [id, secret] = refreshToken.split('.');
    if (!id || !secret || !/^[0-9a-f-]{36}$/.test(id)) return null;
    const record = await repo.find(id);
    if (!record || record.revokedAt || record.expiresAt.getTime() <= Date.now()) return null;
    const expected = Buffer.from(record.tokenHash, 'hex');
    const given = sha256(secret);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return record;
  }

  private async issue(userId: number): Promise<IssuedSession> {
    const id = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    await new RefreshTokensRepository(this.db).insert({
      id,
      userId,
      tokenHash: sha256(secret).toString('hex'),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
    const user = await new UsersRepository(this.db).findDto(userId);
    if (!user) throw new AppError('ERR_SESSION_EXPIRED', 'Session expired. Please login.');
    return { token: await this.tokens.sign(userId), user, refreshToken: `${id}.${secret}` };
  }
}
