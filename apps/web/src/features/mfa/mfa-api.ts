import type { MfaDisableInput, MfaEnableResponse, MfaSetupResponse } from '@wadesk/contracts';
import { api } from '../../services/api';

/** A new secret for the authenticator app (not on until enabled). */
export async function setupMfa(): Promise<MfaSetupResponse> {
  return (await api.post<MfaSetupResponse>('/auth/mfa/setup')).data;
}

/** Turns two-factor sign-in on with a code of the app: the recovery codes, shown once. */
export async function enableMfa(code: string): Promise<MfaEnableResponse> {
  return (await api.post<MfaEnableResponse>('/auth/mfa/enable', { code })).data;
}

export async function disableMfa(input: MfaDisableInput): Promise<void> {
  await api.post('/auth/mfa/disable', input);
}

/** An admin turns off another user's second factor. */
export async function resetUserMfa(userId: number): Promise<void> {
  await api.delete(`/users/${userId}/mfa`);
}

/** The secret inside an otpauth:// URI, in groups of four, for typing it into an app by hand. */
export function secretOfUri(uri: string): string {
  try {
    const secret = new URL(uri).searchParams.get('secret') ?? '';
    return secret.replace(/(.{4})/g, '$1 ').trim();
  } catch {
    return '';
  }
}
