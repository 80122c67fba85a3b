import { isTimeZone } from '@wadesk/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from './app-error.js';

/** The header in which the web app sends the viewer's IANA time zone with every call (issue 32 §5). */
export const TIME_ZONE_HEADER = 'x-time-zone';

/**
 * The `timeZone` query parameter of the routes that read `viewerTimeZone`: declared in their query schema so that it
 * is documented and kept (viewerTimeZone checks it).
 */
export const timeZoneQueryParam = z
  .string()
  .optional()
  .meta({ description: 'The IANA time zone of the viewer, when the `X-Time-Zone` header is not sent.' });

/**
 * The time zone whose days and hours the caller means: the `X-Time-Zone` header (the web app sends the browser's
 * zone) or a `timeZone` query parameter, else `fallback` (the server's, for clients that send neither, as
 * whaticket's). A zone this runtime does not know is a 400, never silently the server's.
 */
export function viewerTimeZone(request: FastifyRequest, fallback: () => string): string {
  const header = request.headers[TIME_ZONE_HEADER];
  const query = (request.query as Record<string, unknown> | undefined)?.timeZone;
  const given = typeof header === 'string' && header !== '' ? header : query;
  if (given === undefined || given === '') return fallback();
  if (typeof given !== 'string' || !isTimeZone(given)) {
    throw new AppError('ERR_VALIDATION', 'The time zone must be an IANA name, e.g. America/Sao_Paulo.', {
      issues: [{ path: typeof header === 'string' && header !== '' ? TIME_ZONE_HEADER : 'timeZone', message: 'must be an IANA time zone' }],
    });
  }
  return given;
}
