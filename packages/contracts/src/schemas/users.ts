import { z } from 'zod';
import { boundedString, dateTimeText, emailField, idField, integerField, pageNumberField, passwordField, searchParamField } from '../validation.js';
import { QueueDto } from './queues.js';

export const PROFILES = ['admin', 'user'] as const;
export const Profile = z.enum(PROFILES);
export type Profile = z.infer<typeof Profile>;

const queueIds = z.array(idField).max(500);
/** Automatic assignment gives the user no more open tickets than this (issue 36 §4); 0 = no limit. */
const maxOpenTickets = integerField(0, 10000);
/**
 * The user's connection; none is `null`, or as whaticket's client sends it, `false` or `""` (its form's empty
 * choice, §7 `POST /users`, `PUT /users/{id}`).
 */
const whatsappId = z.preprocess((value) => (value === false || value === '' ? null : value), idField.nullable());

/** An empty password on edit means "keep the current one". */
const optionalPassword = z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordField.optional());

export const UserCreateInput = z.object({
  name: boundedString(2, 50),
  email: emailField,
  password: passwordField,
  profile: Profile.default('user'),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.default([]),
  maxOpenTickets: maxOpenTickets.default(0),
});
export type UserCreateInput = z.input<typeof UserCreateInput>;

export const UserUpdateInput = z.object({
  name: boundedString(2, 50).optional(),
  email: emailField.optional(),
  password: optionalPassword,
  profile: Profile.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
  maxOpenTickets: maxOpenTickets.optional(),
});
export type UserUpdateInput = z.input<typeof UserUpdateInput>;

export const UserListQuery = z.object({
  searchParam: searchParamField,
  pageNumber: pageNumberField,
});

export const UserDto = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    profile: Profile,
    whatsappId: z.number().int().nullable(),
    whatsapp: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    mfaEnabled: z.boolean().optional().meta({ description: 'Whether the user signs in with a second factor (issue 37 §1).' }),
    queues: z.array(QueueDto),
    /** Automatic assignment's limit of open tickets (issue 36 §4); 0 = no limit. */
    maxOpenTickets: z.number().int(),
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .meta({ id: 'User' });
export type UserDto = z.infer<typeof UserDto>;

export const UserListResponse = z.object({ users: z.array(UserDto), hasMore: z.boolean(), count: z.number().int() });
export type UserListResponse = z.infer<typeof UserListResponse>;

/**
 * A colleague as every signed-in user may see them (GET /api/users/list, the transfer modal's list): who they
 * are and which queues they serve; no e-mail, no profile.
 */
export const ColleagueDto = z
  .object({
    id: z.number().int(),
    name: z.string(),
    queues: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string() })),
  })
  .meta({ id: 'Colleague' });
export type ColleagueDto = z.infer<typeof ColleagueDto>;

/**
 * `GET /api/users` for an attendant (§7 `GET /users/`, the transfer modal's search): a page of colleagues found by
 * name, without e-mail or profile.
 */
export const ColleagueListResponse = z.object({ users: z.array(ColleagueDto), hasMore: z.boolean() });
export type ColleagueListResponse = z.infer<typeof ColleagueListResponse>;
