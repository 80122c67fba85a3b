import { zodResolver } from '@hookform/resolvers/zod';
import { LoginInput, MfaEnableInput, SignupInput } from '@wadesk/contracts';

/** The sign-in forms' validation (zod and the schemas), in a chunk of its own: see lazy-resolver.ts. */
export const loginResolver = zodResolver(LoginInput);
export const signupResolver = zodResolver(SignupInput);
export const mfaCodeResolver = zodResolver(MfaEnableInput);
