import { z } from 'zod';
import { dateTimeText, idField, integerField, pageNumberField, textField } from '../validation.js';
import { MAX_CAMPAIGN_INTERVAL } from './campaigns.js';

/**
 * Group management (/ZDGGroups, §2; issue 13). Each action acts on every group of the chosen connection, except
 * `create`, and runs as a durable job after a random 5–15 s delay (§9):
 * - update: the groups' title (`subject`) and/or description;
 * - create: a group with `title` and `participants` (one number per line);
 * - open / close: everyone may send / only admins may send; `confirmation` must hold ABRIR / FECHAR;
 * - message: `message` in every group;
 * - privateMessage: `message` to every participant of every group (the connection's own number and duplicates
 *   skipped), one at a time, a random `minInterval`–`maxInterval` seconds apart.
 */
export const GROUP_ACTION_KINDS = ['update', 'create', 'open', 'close', 'message', 'privateMessage'] as const;
export type GroupActionKind = (typeof GROUP_ACTION_KINDS)[number];

export const GROUP_ACTION_STATUSES = ['queued', 'running', 'done', 'cancelled'] as const;
export type GroupActionStatus = (typeof GROUP_ACTION_STATUSES)[number];

export const GROUP_ITEM_STATUSES = ['pending', 'running', 'done', 'failed', 'unknown'] as const;
export type GroupItemStatus = (typeof GROUP_ITEM_STATUSES)[number];

/** The words the open and close tabs ask for. */
export const GROUP_CONFIRMATION: Record<'open' | 'close', string> = { open: 'ABRIR', close: 'FECHAR' };

/** The alert of a group action whose fields do not fit it (§5), in the specification's words. */
export const GROUP_FIELDS_ALERT = 'Preencha os campos corretamente, nenhuma ação foi executada.';

/** Pause between two private messages when the send API names none, in seconds (§9). */
export const DEFAULT_GROUP_MESSAGE_INTERVAL = { min: 5, max: 15 } as const;

export type GroupActionField = 'subject' | 'description' | 'title' | 'participants' | 'confirmation' | 'message' | 'minInterval' | 'maxInterval';
export const GROUP_ACTION_FIELD_NAMES: readonly GroupActionField[] = [
  'subject',
  'description',
  'title',
  'participants',
  'confirmation',
  'message',
  'minInterval',
  'maxInterval',
];

/** Each action's fields: `required` must all be filled, `oneOf` at least one; no other field may be. */
export const GROUP_ACTION_FIELDS: Record<GroupActionKind, { required: readonly GroupActionField[]; oneOf?: readonly GroupActionField[] }> = {
  update: { required: [], oneOf: ['subject', 'description'] },
  create: { required: ['title', 'participants'] },
  open: { required: ['confirmation'] },
  close: { required: ['confirmation'] },
  message: { required: ['message'] },
  privateMessage: { required: ['message', 'minInterval', 'maxInterval'] },
};

const optionalText = (max: number) => textField(max).trim().optional();
const intervalField = integerField(0, MAX_CAMPAIGN_INTERVAL, `Must be a whole number of seconds from 0 to ${MAX_CAMPAIGN_INTERVAL}`);

/** `POST /api/groups/actions`: which action, on which connection, with its fields (the rest left empty). */
export const GroupActionInput = z.object({
  whatsappId: idField.optional(),
  action: z.enum(GROUP_ACTION_KINDS, { error: `Must be one of: ${GROUP_ACTION_KINDS.join(', ')}` }),
  subject: optionalText(100),
  description: optionalText(2048),
  title: optionalText(100),
  /** One number per line. */
  participants: optionalText(1024 * 40),
  confirmation: optionalText(20),
  message: optionalText(30000),
  minInterval: intervalField.optional(),
  maxInterval: intervalField.optional(),
});
export type GroupActionInput = z.input<typeof GroupActionInput>;
export type GroupActionData = z.output<typeof GroupActionInput>;

function filled(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * The field rule (§5): an action runs only when exactly its fitting fields are filled. Answers the fields that
 * are wrong (missing, not fitting, or a confirmation word other than ABRIR/FECHAR); empty when the action may run.
 * The page and the server both ask it.
 */
export function groupActionFieldProblems(input: { action: GroupActionKind } & Partial<Record<GroupActionField, unknown>>): GroupActionField[] {
  const rule = GROUP_ACTION_FIELDS[input.action];
  const own = new Set<GroupActionField>([...rule.required, ...(rule.oneOf ?? [])]);
  const wrong = new Set<GroupActionField>();
  for (const field of rule.required) if (!filled(input[field])) wrong.add(field);
  if (rule.oneOf && !rule.oneOf.some((field) => filled(input[field]))) rule.oneOf.forEach((field) => wrong.add(field));
  for (const field of GROUP_ACTION_FIELD_NAMES) if (!own.has(field) && filled(input[field])) wrong.add(field);
  if (input.action === 'open' || input.action === 'close') {
    const word = typeof input.confirmation === 'string' ? input.confirmation.trim() : '';
    if (word !== GROUP_CONFIRMATION[input.action]) wrong.add('confirmation');
  }
  if (input.action === 'privateMessage' && filled(input.minInterval) && filled(input.maxInterval) && Number(input.minInterval) > Number(input.maxInterval)) {
    wrong.add('maxInterval');
  }
  return GROUP_ACTION_FIELD_NAMES.filter((field) => wrong.has(field));
}

/** A group of a connection, as the page lists them. */
export const GroupDto = z
  .object({
    id: z.string(),
    subject: z.string(),
    description: z.string().nullable(),
    participants: z.number().int(),
    /** Only admins may send. */
    announce: z.boolean(),
  })
  .meta({ id: 'Group', description: "A group of a connection: its id (…@g.us), title, description and size." });
export type GroupDto = z.infer<typeof GroupDto>;

export const GroupListResponse = z.array(GroupDto);

export const GroupActionDto = z
  .object({
    id: z.number().int(),
    kind: z.enum(GROUP_ACTION_KINDS),
    status: z.enum(GROUP_ACTION_STATUSES),
    whatsappId: z.number().int(),
    whatsappName: z.string().nullable(),
    /** Who started it; null for the send API. */
    userId: z.number().int().nullable(),
    userName: z.string().nullable(),
    subject: z.string().nullable(),
    description: z.string().nullable(),
    title: z.string().nullable(),
    message: z.string().nullable(),
    minInterval: z.number().int(),
    maxInterval: z.number().int(),
    /** Groups (or participants, or 1 for create) to act on; 0 until the job has listed them. */
    total: z.number().int(),
    /** Finished so far, whatever the outcome. */
    done: z.number().int(),
    failed: z.number().int(),
    /** Outcome not known (the server stopped during that step): never done again. */
    unknown: z.number().int(),
    /** Participants left out of a private message: the connection's own number and repeats. */
    skipped: z.number().int(),
    /** When the next step is due, while queued or running. */
    nextRunAt: dateTimeText.nullable(),
    lastError: z.string().nullable(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
    startedAt: dateTimeText.nullable(),
    finishedAt: dateTimeText.nullable(),
  })
  .meta({ id: 'GroupAction', description: 'An action on the groups of a connection, with its counts.' });
export type GroupActionDto = z.infer<typeof GroupActionDto>;

/** One group (or participant) of an action, with its outcome. */
export const GroupActionItemDto = z
  .object({
    line: z.number().int(),
    /** The group id, or the participant's number. */
    target: z.string(),
    /** The group's title (for a participant: the first group they were found in). */
    label: z.string().nullable(),
    status: z.enum(GROUP_ITEM_STATUSES),
    error: z.string().nullable(),
    /** What the step made: the new group's id (create). */
    result: z.string().nullable(),
    finishedAt: dateTimeText.nullable(),
  })
  .meta({ id: 'GroupActionItem' });
export type GroupActionItemDto = z.infer<typeof GroupActionItemDto>;

export const GroupActionStartedResponse = z.object({
  groupAction: GroupActionDto,
  /** The first step's job (`GET /api/jobs/:id`). */
  jobId: z.string(),
});
export type GroupActionStartedResponse = z.infer<typeof GroupActionStartedResponse>;

export const GroupActionListResponse = z.object({ groupActions: z.array(GroupActionDto), hasMore: z.boolean() });
export type GroupActionListResponse = z.infer<typeof GroupActionListResponse>;

export const GroupActionItemListResponse = z.object({ items: z.array(GroupActionItemDto), hasMore: z.boolean() });
export type GroupActionItemListResponse = z.infer<typeof GroupActionItemListResponse>;

export const GroupListQuery = z.object({ whatsappId: idField.optional() });
export const GroupActionListQuery = z.object({ pageNumber: pageNumberField });
export const GROUP_ACTION_PAGE_SIZE = 20;

/** Payload of the `group.step` job: the action's next step, if `chain` is still the action's. */
export const GroupStepJob = z.object({ groupActionId: z.number().int().positive(), chain: z.string().min(1).max(64) });
export type GroupStepJob = z.infer<typeof GroupStepJob>;
