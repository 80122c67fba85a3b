import type { Profile } from '@wadesk/contracts';

/** The signed-in user a request or socket acts as, loaded fresh from the database. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  /** The sign-in the access token belongs to (its refresh token family), when known. */
  sessionId?: string;
  /** Whether two-factor sign-in is on for the user (issue 37 §1). */
  mfaEnabled?: boolean;
}
