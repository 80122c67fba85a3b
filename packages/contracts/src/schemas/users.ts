import { z } from 'zod';
import { boundedString, emailField, idField, pageNumberField, passwordField, searchParamField } from '../validation.js';
import type { QueueDto } from './queues.js';

export const PROFILES = ['admin', 'user'] as const;
export const Profile = z.enum(PROFILES);
export type Profile = z.infer<typeof Profile>;

const queueIds = z.array(idField).max(500);
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
});
export type UserCreateInput = z.input<typeof UserCreateInput>;

export const UserUpdateInput = z.object({
  name: boundedString(2, 50).optional(),
  email: emailField.optional(),
  password: optionalPassword,
  profile: Profile.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
});
export type UserUpdateInput = z.input<typeof UserUpdateInput>;

export const UserListQuery = z.object({
  searchParam: searchParamField,
  pageNumber: pageNumberField,
});

export interface UserDto {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  queues: QueueDto[];
  createdAt: string;
  updatedAt: string;
}

export interface UserListResponse {
  users: UserDto[];
  hasMore: boolean;
  count: number;
}

/**
 * `GET /api/users` for an attendant (§7 `GET /users/`, the transfer modal's search): a page of colleagues found by
 * name, without e-mail or profile.
 */
export interface ColleagueListResponse {
  users: ColleagueDto[];
  hasMore: boolean;
}

/**
 * A colleague as every signed-in user may see them (GET /api/users/list, the transfer modal's list): who they
 * are and which queues they serve; no e-mail, no profile.
 */
export interface ColleagueDto {
  id: number;
  name: string;
  queues: { id: number; name: string; color: string }[];
}
