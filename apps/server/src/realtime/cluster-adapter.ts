import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { BatchedWrites } from '../db/batched.js';
import { markClustered, type RealtimeServer } from './socket-server.js';

/** How long an answer waits at most for the events its request published (see PublishesUnderWay). */
const PUBLISH_WAIT_MS = 5000;

/** The table the adapter keeps payloads over PostgreSQL's NOTIFY limit (8000 bytes) in, a few seconds each. */
const ATTACHMENTS_TABLE = 'socket_io_attachments';

/**
 * The events being published to the other processes (a NOTIFY, or an attachment row and then its NOTIFY). A request
 * that changed something is answered only once the events it caused have reached PostgreSQL: an acknowledged inbound
 * message's event is out even when this process dies the next moment (without it, a process killed between its answer
 * and its NOTIFY took the event with it, and an attendant on another process never saw a stored message).
 */
export class PublishesUnderWay {
  private readonly pending = new Set<Promise<unknown>>();
  /** Publications that have ended (sent or failed): for the tests. */
  ended = 0;

  get size(): number {
    return this.pending.size;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const done = () => {
      this.pending.delete(work);
      this.ended += 1;
    };
    work.then(done, done);
    return work;
  }

  /**
   * Resolves once every publication started so far has ended (its failures are the adapter's to log), or after
   * `timeoutMs`: a database that stops answering must not hold every answer with it.
   */
  async settled(timeoutMs = PUBLISH_WAIT_MS): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.pending]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Holds the answer of every request but a read until the events published so far are out. */
  register(http: FastifyInstance): void {
    http.addHook('onSend', async (request, _reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') await this.settled();
      return payload;
    });
  }
}

/** The one statement the adapter publishes an event with (@socket.io/postgres-adapter 0.5, dist/util.js). */
const ADAPTER_NOTIFY = 'SELECT pg_notify($1, $2)';

/**
 * The adapter's NOTIFYs, several a statement (issue 11): every event published during one turn of the event loop goes
 * out once that turn is over, in one `pg_notify` statement and so one transaction, in the order they were published
 * (an inbound message publishes two events, its message and its ticket; at a few hundred messages a second the
 * round trips, not the events, were the cost). One statement at a time, so the events arrive in the order they were
 * published (separate statements on the pool's connections could commit in any order). PostgreSQL delivers a
 * transaction's notifications in order and drops a repeat of the same channel and payload within one, so a repeat
 * starts the next statement.
 */
export function batchedNotify(pool: Pick<pg.Pool, 'query'>): BatchedWrites<{ channel: string; payload: string }, undefined> {
  return new BatchedWrites<{ channel: string; payload: string }, undefined>(
    async (items) => {
      // One JSON parameter rather than two text arrays: pg quotes every element of an array parameter with two
      // regular-expression passes in JavaScript, JSON.stringify does it natively.
      await pool.query('select pg_notify(n->>0, n->>1) from json_array_elements($1::json) as n', [
        JSON.stringify(items.map((item) => [item.channel, item.payload])),
      ]);
      return items.map(() => undefined);
    },
    { max: 64, conflicts: (item) => [`${item.channel}\n${item.payload}`], inOrder: true },
  );
}

/**
 * The events this process published, recognised in their echo without parsing them. PostgreSQL delivers a NOTIFY to
 * every listener, the process that sent it too, and the adapter parses each payload only to find its own uid and drop
 * it: with one process, every event of the desk, a few kilobytes of JSON twice per inbound message (issue 11). The
 * adapter writes an event as `{"type":…,"data":…,"uid":"<uid>","nsp":"<nsp>"}` and a large one's header as
 * `{"uid":"<uid>",…}` (@socket.io/postgres-adapter 0.5 on socket.io-adapter 2.5); a payload of another shape is
 * parsed as before, so a change there costs time, not events. A uid is 16 random hex digits and a string in `data`
 * has its quotes escaped, so no event of another process matches.
 */
export class OwnEchoes {
  private readonly suffixes: string[] = [];
  private readonly prefixes: string[] = [];

  add(uid: string, nsp: string): void {
    this.suffixes.push(suffixOf(uid, nsp));
    this.prefixes.push(`{"uid":${JSON.stringify(uid)},`);
  }

  remove(uid: string, nsp: string): void {
    const at = this.suffixes.indexOf(suffixOf(uid, nsp));
    if (at >= 0) {
      this.suffixes.splice(at, 1);
      this.prefixes.splice(at, 1);
    }
  }

  has(payload: string | undefined): boolean {
    if (payload === undefined) return false;
    for (const suffix of this.suffixes) if (payload.endsWith(suffix)) return true;
    for (const prefix of this.prefixes) if (payload.startsWith(prefix)) return true;
    return false;
  }
}

/** How the adapter's event of `uid` in namespace `nsp` ends (see OwnEchoes). */
const suffixOf = (uid: string, nsp: string): string => `,"uid":${JSON.stringify(uid)},"nsp":${JSON.stringify(nsp)}}`;

/** The adapter's own type is not exported; what we wrap of it. */
interface Publishing {
  uid: string;
  close(): unknown;
  doPublish(message: unknown): Promise<unknown>;
  doPublishResponse(requesterUid: string, response: unknown): Promise<unknown>;
}

/**
 * Socket.IO events across every process on the same PostgreSQL (decision 0020): `io.to(room).emit` reaches
 * the sockets of all of them, through LISTEN/NOTIFY. On the embedded database only one process can run, so
 * the in-memory adapter stays.
 */
export async function useClusterAdapter(
  io: RealtimeServer,
  pool: pg.Pool,
  log: { warn(obj: object, msg?: string): void },
  publishes: PublishesUnderWay,
): Promise<void> {
  // Processes starting together may race to create it: the loser's unique violation means it exists.
  await pool
    .query(`create table if not exists ${ATTACHMENTS_TABLE} (id bigserial unique, created_at timestamptz default now(), payload bytea)`)
    .catch((err: { code?: string }) => {
      if (err.code !== '23505' && err.code !== '42P07') throw err;
    });
  // The adapter keeps one client of the pool for LISTEN and never releases it when its connection dies (a database
  // outage): it only listens for 'end' and takes another. Given back to the pool as broken here, so the pool drops
  // it (else pool.end() would wait for it forever) and the 'error' is not an uncaught one.
  const notifies = batchedNotify(pool);
  const ownEchoes = new OwnEchoes();
  const listening = {
    // Its NOTIFYs of one turn of the event loop go out as one statement (see batchedNotify); anything else as it is.
    query: (text: string, values?: unknown[]) =>
      text === ADAPTER_NOTIFY && values?.length === 2 ? notifies.add({ channel: String(values[0]), payload: String(values[1]) }) : pool.query(text, values),
    connect: async () => {
      const client = await pool.connect();
      // Released once: by the adapter's close() or here on an error, whichever comes first; an error after close()
      // (the pool ending) belongs to the pool's own idle listener, and a second release would throw.
      const release = client.release.bind(client);
      const onError = (err: Error) => {
        log.warn({ err }, 'socket.io postgres adapter: the LISTEN connection failed; it reconnects');
        client.release(err);
      };
      client.release = ((err?: Error | boolean) => {
        client.removeListener('error', onError);
        // Back in the pool it is an ordinary client again: its own `on` (wrapped below), and a release that does nothing
        // until the pool hands it out again with a new one.
        delete (client as { on?: unknown }).on;
        client.release = () => undefined;
        release(err);
      }) as typeof client.release;
      client.once('error', onError);
      // The adapter's notification listener hears only the other processes' events (see OwnEchoes).
      const on = client.on.bind(client);
      client.on = ((event: string, listener: (...args: unknown[]) => void) =>
        event === 'notification'
          ? on('notification', (msg: pg.Notification) => {
              if (!ownEchoes.has(msg.payload)) listener(msg);
            })
          : on(event as 'end', listener)) as typeof client.on;
      return client;
    },
  } as unknown as pg.Pool; // the adapter uses query and connect() only
  const postgresAdapter = createAdapter(listening, {
    tableName: ATTACHMENTS_TABLE,
    errorHandler: (err) => log.warn({ err }, 'socket.io postgres adapter error'),
  }) as unknown as (nsp: unknown) => Publishing;
  // Socket.IO builds each namespace's adapter with `new`; a function returning an object serves as its constructor.
  io.adapter(function trackedAdapter(nsp: unknown) {
    const adapter = postgresAdapter(nsp);
    const nspName = (nsp as { name: string }).name;
    ownEchoes.add(adapter.uid, nspName);
    const close = adapter.close.bind(adapter);
    adapter.close = () => {
      ownEchoes.remove(adapter.uid, nspName);
      return close();
    };
    const publish = adapter.doPublish.bind(adapter);
    const publishResponse = adapter.doPublishResponse.bind(adapter);
    adapter.doPublish = (message) => publishes.track(publish(message));
    adapter.doPublishResponse = (requesterUid, response) => publishes.track(publishResponse(requesterUid, response));
    return adapter;
  } as unknown as Parameters<RealtimeServer['adapter']>[0]);
  markClustered(io);
}
