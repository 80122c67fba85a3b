import { z } from 'zod';

/**
 * `GET /api/dashboard`: the tickets of each status, and today's new tickets per hour slot 08:00 to 19:00 of the
 * viewer's day, for the chosen queues (the caller's own by default).
 */
export const DashboardDto = z
  .object({
    counts: z.object({ pending: z.number().int(), open: z.number().int(), closed: z.number().int() }),
    ticketsPerHour: z.array(z.object({ hour: z.string().meta({ description: '`HH:00`' }), count: z.number().int() })),
  })
  .meta({ id: 'Dashboard' });
export type DashboardDto = z.infer<typeof DashboardDto>;
