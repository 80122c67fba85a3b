import { z } from 'zod';

/**
 * The one catalogue of error codes: the specification's list (§8) plus ours.
 * Each code has its HTTP status; the web translates `errors.<CODE>`.
 */
export const ERROR_CATALOGUE = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_WAPP_GREETING_REQUIRED: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUICK_ANSWER_FOUND: 404,
  ERR_NO_WEBHOOK_FOUND: 404,
  /** A webhook URL on a private, loopback or other non-public address (MEDIA_FETCH_PRIVATE=allow lifts it), or whose host is not found. */
  ERR_WEBHOOK_URL_REFUSED: 400,
  ERR_NO_LABEL_FOUND: 404,
  ERR_DUPLICATED_LABEL: 409,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_SETTING_READ_ONLY: 400,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_LAST_ADMIN: 400,
  ERR_VALIDATION: 400,
  /** A body or file over its limit (an upload, a CSV import, a JSON body): always this, never a truncated file kept. */
  ERR_PAYLOAD_TOO_LARGE: 413,
  /** A bulk media folder or file on a place the server keeps to itself (system folders, DATA_DIR, its database, secrets, media). */
  ERR_PROTECTED_PATH: 400,
  ERR_RATE_LIMITED: 429,
  ERR_NOT_FOUND: 404,
  ERR_NO_CAMPAIGN_FOUND: 404,
  ERR_CAMPAIGN_STATE: 409,
  ERR_INVALID_API_TOKEN: 401,
  ERR_GROUP_ACTION_FIELDS: 400,
  ERR_NO_GROUP_ACTION_FOUND: 404,
  ERR_GROUP_ACTION_STATE: 409,
  ERR_NO_HISTORY_IMPORT_FOUND: 404,
  ERR_HISTORY_IMPORT_STATE: 409,
  ERR_NO_JOB_FOUND: 404,
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_SCHEDULE_STATE: 409,
  ERR_SCHEDULE_IN_PAST: 400,
  ERR_SCHEDULE_EMPTY: 400,
  ERR_SCHEDULE_RECIPIENT: 400,
  ERR_EMAIL_NOT_CONFIGURED: 400,
  ERR_EMAIL_SEND_FAILED: 502,
  ERR_PROVIDER_NOT_CONFIGURED: 400,
  ERR_NO_OUTREACH_FOUND: 404,
  ERR_OUTREACH_STATE: 409,
  ERR_OUTREACH_RECIPIENTS: 400,
  ERR_WEBHOOK_SIGNATURE: 401,
  ERR_CLOUD_API_CONFIG: 400,
  ERR_CLOUD_API_WINDOW_CLOSED: 400,
  ERR_CLOUD_API_RATE_LIMITED: 429,
  ERR_CLOUD_API_CANNOT_DELETE: 400,
  ERR_CLOUD_API_ERROR: 400,
  ERR_CLOUD_API_SIGNATURE: 401,
  ERR_CLOUD_API_TEMPLATE_REQUIRED: 400,
  ERR_CLOUD_API_TEMPLATE_NOT_ALLOWED: 400,
  ERR_REACTION_NOT_OFFERED: 400,
  /** A note names (`@Name`) a colleague who may not see its ticket (issue 36 §1): nothing is stored. */
  ERR_MENTION_NOT_ALLOWED: 400,
  /**
   * An accept (or an assignment) of a waiting ticket that someone took meanwhile: automatic assignment (issue 36 §4)
   * or another accept. Nothing changed; the ticket is theirs.
   */
  ERR_TICKET_ALREADY_TAKEN: 409,
  /** Two-factor sign-in (issue 37 §1): the password was right, a code is needed (the body carries `mfaToken`). */
  ERR_MFA_REQUIRED: 401,
  /** A wrong, used or replayed code (a TOTP code of a step already accepted, a recovery code already used). */
  ERR_INVALID_MFA_CODE: 401,
  /** The sign-in's second step was called with an mfaToken that is not one, has expired, or no longer matches the account. */
  ERR_MFA_TOKEN_INVALID: 401,
  /** mfaRequiredForAdmins: an admin must turn on two-factor sign-in before anything else. */
  ERR_MFA_SETUP_REQUIRED: 403,
  /** Set-up or enable while two-factor sign-in is on (disable it first). */
  ERR_MFA_ALREADY_ENABLED: 409,
  /** Enable before set-up, or disable while it is off. */
  ERR_MFA_NOT_ENABLED: 400,
  ERR_INTERNAL: 500,
  ERR_DB_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code];
}

/** The i18n key the web uses to translate a code. */
export function errorI18nKey(code: ErrorCode): `errors.${ErrorCode}` {
  return `errors.${code}`;
}

export interface ValidationIssue {
  path: string;
  /** In English, for API clients and logs. */
  message: string;
  /** What the web translates (`validation.issues.<code>`, with `params`) where the message has details in it. */
  code?: string;
  params?: Record<string, string | number>;
}

/** Body of every error response. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  issues?: ValidationIssue[];
  /** ERR_OTHER_OPEN_TICKET: the contact's ticket already open or pending on that connection (a client may open it). */
  ticketId?: number;
  /** ERR_MFA_REQUIRED: the short-lived token that proves the password step, for POST /api/auth/mfa. */
  mfaToken?: string;
}

/** The error body as a schema (the API document's 4xx answers). */
export const ErrorBodySchema = z
  .object({
    error: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    issues: z
      .array(z.object({ path: z.string(), message: z.string(), code: z.string().optional(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }))
      .optional(),
    ticketId: z.number().int().optional(),
    mfaToken: z.string().optional(),
  })
  .meta({ id: 'ErrorBody', description: 'Every refusal: an error code of the catalogue, an English message, and one issue per field for ERR_VALIDATION.' });
