import { ERROR_MESSAGES, errorStatus, type ErrorCode, type ValidationIssue } from '@wadesk/contracts';

export interface AppErrorOptions {
  issues?: ValidationIssue[];
  /** Overrides the code's usual status (an expired access token is 403, not 401). */
  status?: number;
  /** Sent as Retry-After (a 429's window, in seconds). */
  retryAfterSeconds?: number;
  /** The ticket the error is about (ERR_OTHER_OPEN_TICKET: the one already active), sent as `ticketId`. */
  ticketId?: number;
  /** ERR_MFA_REQUIRED: the token of the sign-in's password step, sent as `mfaToken`. */
  mfaToken?: string;
}

/**
 * A failure the client should see as `{ error: code, message }` with the code's HTTP status; without a message of
 * its own, the code's sentence (ERROR_MESSAGES), never the bare code.
 */
export class AppError extends Error {
  readonly status: number;
  readonly issues?: ValidationIssue[];
  readonly retryAfterSeconds?: number;
  readonly ticketId?: number;
  readonly mfaToken?: string;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: AppErrorOptions = {},
  ) {
    super(message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.status = options.status ?? errorStatus(code);
    this.issues = options.issues;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.ticketId = options.ticketId;
    this.mfaToken = options.mfaToken;
  }
}
