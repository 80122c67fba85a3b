import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { markClustered, type RealtimeServer } from './socket-server.js';

/** The table the adapter keeps payloads over PostgreSQL's NOTIFY limit (8000 bytes) in, a few seconds each. */
const ATTACHMENTS_TABLE = 'socket_io_attachments';

/**
 * Socket.IO events across every process on the same PostgreSQL (decision 0020): `io.to(room).emit` reaches
 * the sockets of all of them, through LISTEN/NOTIFY. On the embedded database only one process can run, so
 * the in-memory adapter stays.
 */
export async function useClusterAdapter(
  io: RealtimeServer,
  pool: pg.Pool,
  log: { warn(obj: object, msg?: string): void },
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
  const listening = {
    query: pool.query.bind(pool),
    connect: async () => {
      const client = await pool.connect();
      client.once('error', (err) => {
        log.warn({ err }, 'socket.io postgres adapter: the LISTEN connection failed; it reconnects');
        client.release(err);
      });
      return client;
    },
  } as unknown as pg.Pool; // the adapter uses query and connect() only
  io.adapter(
    createAdapter(listening, {
      tableName: ATTACHMENTS_TABLE,
      errorHandler: (err) => log.warn({ err }, 'socket.io postgres adapter error'),
    }),
  );
  markClustered(io);
}
