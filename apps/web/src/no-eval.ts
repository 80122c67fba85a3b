import { config } from 'zod';

/**
 * No eval under the Content-Security-Policy (`script-src 'self'`): zod must neither probe for it with
 * `Function('')` (refused, and reported as a CSP violation) nor compile its parsers with it.
 * Imported first by main.tsx, before any module that builds or runs a schema.
 */
config({ jitless: true });
