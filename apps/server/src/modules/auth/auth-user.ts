import type { Profile } from '@wadesk/contracts';

/** The signed-in user a request or socket acts as, loaded fresh from the database. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
}
