import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.js';
import { TicketsRepository } from './tickets.repository.js';

/** How often the count changes are folded into ticket_counts: a count sums the changes not folded yet. */
export const FOLD_INTERVAL_MS = 2_000;

/**
 * Keeps the tickets' maintained counts small to read (decision 0024): every few seconds, the +n/-n rows the triggers
 * wrote since the last fold are moved into ticket_counts. Counts are exact with or without it; without it, each
 * count would sum every change since the start.
 */
export class TicketCountsFolder {
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  /** The fold under way, if any (a fold that comes due while one runs is skipped). */
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Executor,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Folds now; answers how many change rows were moved. */
  fold(): Promise<number> {
    return new TicketsRepository(this.db).foldCounts();
  }

  start(intervalMs = FOLD_INTERVAL_MS): void {
    if (this.timer) return;
    const run = () => {
      if (this.running) return;
      this.running = this.fold()
        .then(
          () => {
            this.failing = false;
          },
          (err: unknown) => {
            // Once per outage: the next fold after the database is back moves everything at once.
            if (!this.failing) this.log.warn({ err }, 'folding the ticket counts failed');
            this.failing = true;
          },
        )
        .finally(() => {
          this.running = null;
        });
    };
    run();
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  /** No more folds; resolves once the one under way (if any) has ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
