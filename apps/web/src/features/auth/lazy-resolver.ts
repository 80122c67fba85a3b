import type { FieldValues, Resolver } from 'react-hook-form';
import type * as AuthResolversModule from './auth-resolvers';

type AuthResolvers = typeof AuthResolversModule;

let loading: Promise<AuthResolvers> | undefined;

/** Starts loading the sign-in forms' validation (once); the pages call it when they mount. */
export function preloadAuthResolvers(): Promise<AuthResolvers> {
  loading ??= import('./auth-resolvers');
  return loading;
}

/**
 * A form resolver whose validation code is loaded on first use: zod and the contracts' schemas stay out of the
 * JavaScript the login page needs to become interactive (issue 11: ≤ 250 KB gzip before login).
 */
export function lazyResolver<V extends FieldValues>(pick: (resolvers: AuthResolvers) => unknown): Resolver<V> {
  return async (values, context, options) => {
    const resolver = pick(await preloadAuthResolvers()) as Resolver<V>;
    return resolver(values, context, options);
  };
}
