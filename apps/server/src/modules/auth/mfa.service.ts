import { isAdmin, type MfaEnableResponse, type MfaSetupResponse } from '@wadesk/contracts';
import QRCode from 'qrcode';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { audit } from '../audit/audit.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AuthUser } from './auth-user.js';
import { LoginLimits } from './login-limits.js';
import { MfaTokens } from './mfa-token.js';
import { MfaRepository } from './mfa.repository.js';
import { verifyPassword } from './password.js';
import { looksLikeTotpCode, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from './totp.js';

export type Clock = () => Date;

const invalidCode = () => new AppError('ERR_INVALID_MFA_CODE');
const alreadyEnabled = () => new AppError('ERR_MFA_ALREADY_ENABLED');
const notEnabled = () => new AppError('ERR_MFA_NOT_ENABLED');

/**
 * Two-factor sign-in (issue 37 §1, decision 0043): a TOTP secret per user (RFC 6238), ten single-use recovery codes
 * kept hashed, each TOTP step accepted once, every code counted against the login limits of its own windows.
 */
export class MfaService {
  readonly tokens: MfaTokens;

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    jwtSecret: string,
    private readonly now: Clock = () => new Date(),
  ) {
    this.tokens = new MfaTokens(jwtSecret, now);
  }

  /**
   * A new secret for the user's authenticator app, not yet on (calling again replaces it); refused while it is on.
   */
  async setup(user: AuthUser): Promise<MfaSetupResponse> {
    const repo = new MfaRepository(this.db);
    const state = await repo.state(user.id);
    if (!state) throw new AppError('ERR_SESSION_EXPIRED');
    if (state.enabledAt) throw alreadyEnabled();
    const secret = newTotpSecret();
    if (!(await repo.storePendingSecret(user.id, secret))) throw alreadyEnabled();
    const uri = totpUri(secret, state.email);
    return { uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
  }

  /** Turns it on with a code of the app just set up; answers the recovery codes, which are stored hashed only. */
  async enable(user: AuthUser, code: string, ip: string): Promise<MfaEnableResponse> {
    const attempt = await new LoginLimits(this.db, 'mfa').begin(ip, `user:${user.id}`);
    const state = await new MfaRepository(this.db).state(user.id);
    if (!state) throw new AppError('ERR_SESSION_EXPIRED');
    if (state.enabledAt) throw alreadyEnabled();
    if (!state.secret) throw notEnabled();
    const step = looksLikeTotpCode(code) ? totpStep(state.secret, code, this.now()) : null;
    if (step === null) throw invalidCode();
    const recoveryCodes = newRecoveryCodes();
    await this.db.transaction(async (tx) => {
      const repo = new MfaRepository(tx);
      if (!(await repo.enable(user.id, this.now(), step))) throw alreadyEnabled();
      await repo.replaceRecoveryCodes(user.id, recoveryCodes.map(recoveryCodeHash));
      await audit.record(tx, { action: 'mfa.enable', targetType: 'user', targetId: user.id });
    });
    await attempt.succeeded();
    return { recoveryCodes };
  }

  /** Turns it off: the password and a code (of the app, or a recovery code) prove it is the owner. */
  async disable(user: AuthUser, password: string, code: string, ip: string): Promise<void> {
    const attempt = await new LoginLimits(this.db, 'mfa').begin(ip, `user:${user.id}`);
    const state = await new MfaRepository(this.db).state(user.id);
    if (!state) throw new AppError('ERR_SESSION_EXPIRED');
    if (!state.enabledAt || !state.secret) throw notEnabled();
    if (!(await verifyPassword(state.passwordHash, password))) throw new AppError('ERR_INVALID_CREDENTIALS', 'Wrong password.');
    const secret = state.secret;
    await this.db.transaction(async (tx) => {
      if (!(await this.acceptCode(tx, user.id, secret, code))) throw invalidCode();
      await new MfaRepository(tx).disable(user.id);
      await audit.record(tx, { action: 'mfa.disable', targetType: 'user', targetId: user.id });
    });
    await attempt.succeeded();
  }

  /** An admin turns another user's second factor off (a lost phone): that user signs in with the password alone. */
  async reset(targetId: number): Promise<void> {
    const state = await new MfaRepository(this.db).state(targetId);
    if (!state) throw new AppError('ERR_NO_USER_FOUND');
    await this.db.transaction(async (tx) => {
      const changed = await new MfaRepository(tx).disable(targetId);
      if (changed) await audit.record(tx, { action: 'mfa.reset', targetType: 'user', targetId, before: { mfaEnabled: state.enabledAt !== null } });
    });
  }

  /**
   * The sign-in's second step: a code of the user's app (each step once) or an unused recovery code, counted against
   * the code limits (per account, per address). Throws ERR_INVALID_MFA_CODE (or 429) when it does not pass.
   */
  async checkSignInCode(userId: number, code: string, ip: string): Promise<void> {
    const attempt = await new LoginLimits(this.db, 'mfa').begin(ip, `user:${userId}`);
    const state = await new MfaRepository(this.db).state(userId);
    if (!state?.enabledAt || !state.secret) throw new AppError('ERR_MFA_TOKEN_INVALID');
    const secret = state.secret;
    const accepted = await this.db.transaction((tx) => this.acceptCode(tx, userId, secret, code));
    if (!accepted) throw invalidCode();
    await attempt.succeeded();
  }

  /** Whether this signed-in user must turn on two-factor sign-in before anything else (mfaRequiredForAdmins). */
  async setupRequired(user: Pick<AuthUser, 'profile' | 'mfaEnabled'>): Promise<boolean> {
    if (!isAdmin(user) || user.mfaEnabled) return false;
    return (await this.settings.cachedValue('mfaRequiredForAdmins')) === 'enabled';
  }

  /** A TOTP code of a step later than the last one accepted, or an unused recovery code (then used up). */
  private async acceptCode(executor: Executor, userId: number, secret: string, code: string): Promise<boolean> {
    const repo = new MfaRepository(executor);
    if (looksLikeTotpCode(code)) {
      const step = totpStep(secret, code, this.now());
      return step !== null && (await repo.acceptStep(userId, step));
    }
    if (!(await repo.useRecoveryCode(userId, recoveryCodeHash(code), this.now()))) return false;
    await audit.record(executor, {
      action: 'mfa.recovery_code_used',
      targetType: 'user',
      targetId: userId,
      after: { unusedLeft: await repo.unusedRecoveryCodes(userId) },
    });
    return true;
  }
}
