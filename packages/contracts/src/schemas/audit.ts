import { z } from 'zod';
import { dateTimeText, idField, pageNumberField } from '../validation.js';

/**
 * What the audit log records (issue 37 §2), one name per kind of change: `<target>.<verb>`. Admin changes
 * (settings, users, queues, connections, labels, quick answers, webhooks, the tools open to attendants), the
 * destructive and bulk actions of the desk, sign-in and second factor, the API token's calls and the log's own export.
 */
export const AUDIT_ACTIONS = [
  'settings.update',
  'tool_access.update',
  'api_token.regenerate',
  'api_token.use',
  'user.create',
  'user.update',
  'user.delete',
  'queue.create',
  'queue.update',
  'queue.delete',
  'connection.create',
  'connection.update',
  'connection.delete',
  'connection.session',
  'label.create',
  'label.update',
  'label.delete',
  'quick_answer.create',
  'quick_answer.update',
  'quick_answer.delete',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'ticket.delete',
  'ticket.close_all',
  'message.delete',
  'contact.delete',
  'contact.import',
  'contact.export',
  'campaign.create',
  'campaign.start',
  'campaign.pause',
  'campaign.cancel',
  'campaign.export',
  'group_action.create',
  'outreach.batch',
  'history.import',
  'auth.login',
  'auth.login_failed',
  'mfa.enable',
  'mfa.disable',
  'mfa.reset',
  'mfa.recovery_code_used',
  'audit.export',
  'audit.retention',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/** Who: a signed-in user, the send API's token, the desk itself (jobs), or someone not signed in (a failed sign-in). */
export const AUDIT_ACTOR_KINDS = ['user', 'token', 'system', 'anonymous'] as const;
export const AuditActorKind = z.enum(AUDIT_ACTOR_KINDS);
export type AuditActorKind = z.infer<typeof AuditActorKind>;

/** What a secret reads as in an entry's before and after. */
export const AUDIT_MASK = '***';

export const AuditEntryDto = z
  .object({
    id: z.number().int(),
    at: dateTimeText,
    actorKind: AuditActorKind,
    userId: z.number().int().nullable(),
    userName: z.string().nullable().meta({ description: "The user's name then; for a failed sign-in, the e-mail tried." }),
    ip: z.string().nullable(),
    action: AuditAction,
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    before: z.unknown().nullable().meta({ description: 'The target before the change (secrets as ***), or null.' }),
    after: z.unknown().nullable().meta({ description: 'The target after the change (secrets as ***), or null.' }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryDto = z.infer<typeof AuditEntryDto>;

/** An empty parameter (a cleared filter in a URL) is no filter. */
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const AuditListQuery = z.object({
  action: z.preprocess(blankToUndefined, AuditAction.optional()),
  userId: z.preprocess(blankToUndefined, idField.optional()),
  from: z.preprocess(blankToUndefined, dateTimeText.optional()).meta({ description: 'Entries at or after this instant.' }),
  to: z.preprocess(blankToUndefined, dateTimeText.optional()).meta({ description: 'Entries before this instant.' }),
  pageNumber: pageNumberField,
});
export type AuditListQuery = z.input<typeof AuditListQuery>;

export const AuditExportQuery = AuditListQuery.omit({ pageNumber: true });
export type AuditExportQuery = z.input<typeof AuditExportQuery>;

export const AUDIT_PAGE_SIZE = 50;

export const AuditListResponse = z.object({ entries: z.array(AuditEntryDto), hasMore: z.boolean() });
export type AuditListResponse = z.infer<typeof AuditListResponse>;

/** The CSV export's columns, in order. */
export const AUDIT_CSV_COLUMNS = ['at', 'actorKind', 'userId', 'userName', 'ip', 'action', 'targetType', 'targetId', 'before', 'after'] as const;
