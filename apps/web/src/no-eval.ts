/**
 * No eval under the Content-Security-Policy (`script-src 'self'`): zod must neither probe for it with
 * `Function('')` (refused, and reported as a CSP violation) nor compile its parsers with it.
 * Imported first by main.tsx, before any module that builds or runs a schema.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig`, shared by every copy of zod and taken as is
 * when zod's core loads, so `jitless` is set there instead of through zod's `config()`: importing zod here put
 * part of it in the first load, which the login page does not need (issue 11; its forms load zod with their
 * validation). no-eval.test.ts checks that zod sees it.
 */
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

globalThis.__zod_globalConfig ??= {};
globalThis.__zod_globalConfig.jitless = true;

export {};
