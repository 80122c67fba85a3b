import { createHash, timingSafeEqual } from 'node:crypto';
import type { Channel, ErrorBody } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChannelDriver, ChannelDriverFactory } from '../channels/channel-driver.js';
import { rowsOf, type Database } from '../db/client.js';
import type { DomainEvents } from '../events/domain-events.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { RealtimeServer } from '../realtime/socket-server.js';
import { unhandledRejections } from './unhandled-rejections.js';

/** What the scrape reads at collection time (this process's sockets, the database's jobs and connections). */
export interface MetricsSources {
  db: Database;
  jobs: JobQueue;
  io: RealtimeServer;
}

/** The label of a request that matched no route: raw URLs would make one series per scanner's guess. */
const UNMATCHED_ROUTE = '<unmatched>';

/**
 * Prometheus metrics (prom-client), one registry per app (tests build several apps in one process).
 * Counters and histograms move as things happen in this process; job queues, connection states and socket
 * clients are read when Prometheus scrapes. Every name starts with `wadesk_`; the process's own (CPU, memory,
 * event loop) are prom-client's defaults.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly inbound: Counter<'channel'>;
  private readonly outbound: Counter<'channel'>;
  private readonly sendFailures: Counter<'channel'>;
  private readonly sendSeconds: Histogram<'channel'>;
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status_code'>;
  private readonly channelOf = new Map<number, Channel>();
  private sources: MetricsSources | null = null;
  private pendingJobStats: Promise<{ name: string; queued: number; failed: number }[]> | null = null;

  constructor(private readonly db: Database, events: DomainEvents) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.inbound = new Counter({ name: 'wadesk_messages_inbound_total', help: 'Messages received from contacts and stored, by channel', labelNames: ['channel'], registers });
    this.outbound = new Counter({ name: 'wadesk_messages_outbound_total', help: 'Messages sent by this process through a connection, by channel', labelNames: ['channel'], registers });
    this.sendFailures = new Counter({ name: 'wadesk_message_send_failures_total', help: 'Sends a connection refused or that failed, by channel', labelNames: ['channel'], registers });
    this.sendSeconds = new Histogram({
      name: 'wadesk_message_send_duration_seconds',
      help: 'Time a connection takes to send one message (text or media), by channel',
      labelNames: ['channel'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'wadesk_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const rejections: Counter = new Counter({
      name: 'wadesk_unhandled_rejections_total',
      help: 'Promise rejections nobody handled, logged while the process kept serving (decision 0027)',
      registers,
      collect: () => {
        rejections.reset();
        rejections.inc(unhandledRejections());
      },
    });
    const sockets: Gauge = new Gauge({
      name: 'wadesk_socket_clients',
      help: 'Socket.IO clients connected to this process',
      registers,
      collect: () => sockets.set(this.sources?.io.engine.clientsCount ?? 0),
    });
    const connections: Gauge<'channel' | 'status'> = new Gauge({
      name: 'wadesk_connections',
      help: 'Connections by channel and status, as stored (every process sees the same)',
      labelNames: ['channel', 'status'],
      registers,
      collect: async () => {
        const rows = rowsOf<{ channel: string; status: string; count: number | string }>(
          await this.db.execute(sql`select channel, status, count(*) as count from whatsapps group by channel, status`),
        );
        connections.reset();
        for (const row of rows) connections.set({ channel: row.channel, status: row.status }, Number(row.count));
      },
    });
    const queueDepth: Gauge<'queue'> = new Gauge({
      name: 'wadesk_job_queue_depth',
      help: 'Jobs waiting in a queue (created or retry), by queue',
      labelNames: ['queue'],
      registers,
      collect: async () => {
        const stats = await this.jobStats();
        queueDepth.reset();
        for (const queue of stats) queueDepth.set({ queue: queue.name }, queue.queued);
      },
    });
    const failed: Gauge<'queue'> = new Gauge({
      name: 'wadesk_job_failed',
      help: 'Jobs that failed for good (retries used up) and are still kept, by queue',
      labelNames: ['queue'],
      registers,
      collect: async () => {
        const stats = await this.jobStats();
        failed.reset();
        for (const queue of stats) failed.set({ queue: queue.name }, queue.failed);
      },
    });
    events.on('whatsapp.saved', ({ whatsapp }) => this.channelOf.set(whatsapp.id, whatsapp.channel));
    events.on('whatsapp.deleted', ({ whatsappId }) => this.channelOf.delete(whatsappId));
  }

  /** The job queues' figures, read once for both job gauges of a scrape. */
  private jobStats(): Promise<{ name: string; queued: number; failed: number }[]> {
    if (!this.sources) return Promise.resolve([]);
    this.pendingJobStats ??= this.sources.jobs.stats().finally(() => {
      this.pendingJobStats = null;
    });
    return this.pendingJobStats;
  }

  /** What the scrape reads; set once the job queue and Socket.IO exist. */
  attach(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** A message from a contact stored by the inbound pipeline. */
  async countInbound(whatsappId: number): Promise<void> {
    this.inbound.inc({ channel: await this.channel(whatsappId) });
  }

  /** Times and counts every driver's sends (sendText, sendMedia), keeping the driver itself (its class, its other methods). */
  instrumentDriver(channel: Channel, factory: ChannelDriverFactory): ChannelDriverFactory {
    return (context) => {
      const driver = factory(context);
      for (const method of ['sendText', 'sendMedia'] as const) {
        const send = driver[method].bind(driver) as (...args: unknown[]) => Promise<unknown>;
        (driver as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
          const end = this.sendSeconds.startTimer({ channel });
          try {
            const sent = await send(...args);
            this.outbound.inc({ channel });
            return sent;
          } catch (err) {
            this.sendFailures.inc({ channel });
            throw err;
          } finally {
            end();
          }
        };
      }
      return driver as ChannelDriver;
    };
  }

  /** HTTP latency by route pattern (`/api/tickets/:ticketId`), never the raw URL. */
  registerHttpTiming(http: FastifyInstance): void {
    http.addHook('onResponse', async (request, reply) => {
      const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
      this.httpSeconds.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  }

  /** GET /metrics (Prometheus' path, outside /api), behind `Authorization: Bearer <METRICS_TOKEN>`. */
  registerRoute(http: FastifyInstance, token: string): void {
    const expected = digest(token);
    // public for the session guard: the metrics token is this route's own credential, checked here.
    http.get('/metrics', { config: { access: 'public' } }, async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const [scheme, given] = header.split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !given || !timingSafeEqual(digest(given), expected)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: 'ERR_INVALID_API_TOKEN', message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>.' } satisfies ErrorBody);
      }
      reply.header('cache-control', 'no-store').type(this.registry.contentType);
      return this.registry.metrics();
    });
  }

  private async channel(whatsappId: number): Promise<Channel> {
    const known = this.channelOf.get(whatsappId);
    if (known) return known;
    const [row] = rowsOf<{ channel: Channel }>(await this.db.execute(sql`select channel from whatsapps where id = ${whatsappId}`));
    const channel = row?.channel ?? ('unknown' as Channel);
    if (row) this.channelOf.set(whatsappId, channel);
    return channel;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
