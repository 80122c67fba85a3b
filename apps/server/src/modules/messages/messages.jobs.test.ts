import { describe, expect, it } from 'vitest';
import type { JobDefinition, JobQueue, SendOptions } from '../../jobs/job-queue.js';
import type { RealtimeServer } from '../../realtime/socket-server.js';
import { OWNER_TOLD_FOR_MS, registerMessageJobs } from './messages.jobs.js';
import type { MessagesService } from './messages.service.js';

/** The job queue as messages.jobs.ts uses it, recording what it is asked. */
function recordingQueue() {
  const definitions = new Map<string, JobDefinition<never>>();
  const sent: { name: string; data: unknown; startAfter: number | null }[] = [];
  const wakes: { name: string; at: number }[] = [];
  const jobs = {
    register: async (definition: JobDefinition<never>) => void definitions.set(definition.name, definition),
    send: async (definition: JobDefinition<never>, data: unknown, options: SendOptions = {}) => {
      sent.push({ name: definition.name, data, startAfter: options.startAfter?.getTime() ?? null });
      return `job-${sent.length}`;
    },
    wakeAt: (name: string, at: number) => void wakes.push({ name, at }),
    settle: async () => null,
  };
  return { jobs: jobs as unknown as JobQueue, definitions, sent, wakes };
}

describe('routed sends on a process that does not run the connection (decision 0020)', () => {
  it('queue a young job again 50 ms ahead with its owner told, and one waiting past OWNER_TOLD_FOR_MS 0.1–0.8 s ahead, untold', async () => {
    const queue = recordingQueue();
    const messages = {
      sendStored: async () => 'elsewhere' as const,
      useRouter: () => undefined,
      // Every process hears the announcement; this one plays the owner too, so that what it was told shows.
      runsHere: () => true,
    } as unknown as MessagesService;
    const now = Date.now();
    const routed = await registerMessageJobs(queue.jobs, messages, () => new Date(now));
    routed.tellOwnersThrough({ on: () => undefined } as unknown as RealtimeServer);
    const send = queue.definitions.get('message.send')! as unknown as JobDefinition<never>;

    await send.handler({ messageId: 1, ticketId: 7, whatsappId: 3, queuedAt: now - 1_000 } as never, { id: 'a' });
    await new Promise((resolve) => setImmediate(resolve));
    const young = queue.sent[0]!;
    expect(young.startAfter! - Date.now()).toBeLessThanOrEqual(100);
    expect(young.startAfter! - now).toBeGreaterThanOrEqual(50);
    expect(queue.wakes).toEqual([{ name: 'message.send', at: young.startAfter }]);

    await send.handler({ messageId: 2, ticketId: 7, whatsappId: 3, queuedAt: now - OWNER_TOLD_FOR_MS - 1 } as never, { id: 'b' });
    await new Promise((resolve) => setImmediate(resolve));
    const old = queue.sent[1]!;
    expect(old.startAfter! - now).toBeGreaterThanOrEqual(100);
    expect(old.startAfter! - Date.now()).toBeLessThanOrEqual(800);
    expect(queue.wakes).toHaveLength(1);

    // A job queued before jobs carried their connection goes the old way too.
    await send.handler({ messageId: 3, queuedAt: now } as never, { id: 'c' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.sent[2]!.startAfter! - now).toBeGreaterThanOrEqual(100);
    expect(queue.wakes).toHaveLength(1);
  });
});
