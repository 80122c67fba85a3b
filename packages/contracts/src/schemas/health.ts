import { z } from 'zod';

/** `GET /api/health` (liveness): the database answered; the server's optional features, for the web app. */
export const HealthDto = z
  .object({
    status: z.literal('ok'),
    database: z.enum(['postgres', 'pglite']),
    /** The built-in simulator runs (SIMULATOR=on): its routes and its page exist. */
    simulator: z.boolean(),
    /** Where the user guide is published (GUIDE_URL, `{lang}` in it), or null. */
    guideUrl: z.string().nullable(),
  })
  .meta({ id: 'Health' });
export type HealthDto = z.infer<typeof HealthDto>;

/** `GET /api/health` when the database does not answer within 2 s: 503, the error body and the probe's fields. */
export const HealthUnavailableDto = z
  .object({
    error: z.literal('ERR_DB_UNAVAILABLE'),
    message: z.string(),
    status: z.literal('unavailable'),
    database: z.enum(['postgres', 'pglite']),
  })
  .meta({ id: 'HealthUnavailable' });
export type HealthUnavailableDto = z.infer<typeof HealthUnavailableDto>;

const readyCheck = z.enum(['ok', 'failed', 'stopping']);

/** `GET /api/ready` (readiness): each check, and for a signed-in admin which ffmpeg converts audio. */
export const ReadyDto = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    checks: z.object({ database: readyCheck, migrations: readyCheck, jobs: readyCheck, shutdown: readyCheck }),
    /** Only for a signed-in admin. */
    details: z
      .object({
        ffmpeg: z
          .object({ path: z.string(), source: z.enum(['env', 'system', 'bundled']), version: z.string().nullable() })
          .nullable()
          .meta({ description: 'Which ffmpeg converts audio: its path, where it came from, the first line of `ffmpeg -version`.' }),
      })
      .optional(),
  })
  .meta({ id: 'Readiness' });
export type ReadyDto = z.infer<typeof ReadyDto>;
