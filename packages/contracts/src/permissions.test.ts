import { describe, expect, it } from 'vitest';
import { can } from './permissions.js';

describe('can', () => {
  it('lets admins delete contacts, in any case of the profile', () => {
    expect(can('admin', 'contacts-page:deleteContact')).toBe(true);
    expect(can('ADMIN', 'contacts-page:deleteContact')).toBe(true);
  });

  it('refuses users and unknown or missing profiles', () => {
    expect(can('user', 'contacts-page:deleteContact')).toBe(false);
    expect(can('superuser', 'contacts-page:deleteContact')).toBe(false);
    expect(can(undefined, 'tickets-manager:showall')).toBe(false);
  });
});
