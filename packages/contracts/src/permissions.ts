import type { AttendantTool } from './schemas/settings.js';
import type { UserDto } from './schemas/users.js';

/**
 * The permission rules table (§6): which profile may do what. The web hides what a profile may not do;
 * the server checks the same rules and is the authority.
 */
export const PERMISSION_RULES = {
  user: [],
  admin: [
    'drawer-admin-items:view',
    'tickets-manager:showall',
    'user-modal:editProfile',
    'user-modal:editQueues',
    'ticket-options:deleteTicket',
    'ticket-options:transferWhatsapp',
    'contacts-page:deleteContact',
    'contacts-page:changeNumber',
    'contacts-page:export',
  ],
} as const satisfies Record<string, readonly string[]>;

export type PermissionRule = (typeof PERMISSION_RULES)['admin'][number];

/** Whether a profile ('admin' or 'user', any case) may act by the rule. */
export function can(profile: string | null | undefined, rule: PermissionRule): boolean {
  const key = (profile ?? '').toLowerCase();
  if (key !== 'admin' && key !== 'user') return false;
  const allowed: readonly string[] = PERMISSION_RULES[key];
  return allowed.includes(rule);
}

/**
 * Whether the user is an admin (the profile in any case). Here rather than beside the user schemas, so that the web
 * app's first load can check it without loading zod (the package has no side effects: unused modules are dropped).
 */
export function isAdmin(user: Pick<UserDto, 'profile'> | null | undefined): boolean {
  return !!user && user.profile.toLowerCase() === 'admin';
}

/** Whether the user may use a tool: admins always; attendants when the setting attendantTools lists it (issue 32). */
export function mayUseTool(user: Pick<UserDto, 'profile'> | null | undefined, tools: ReadonlySet<AttendantTool>, tool: AttendantTool): boolean {
  return !!user && (isAdmin(user) || tools.has(tool));
}
