/**
 * A TCP proxy between a process and PostgreSQL that reads what the process sends (the frontend protocol): every
 * statement it runs, with its parameter values, on whichever of its connections. The benchmarks see a request's
 * statements as the built server runs them, raw pool queries and pg-boss's included, without touching the database's
 * settings (log_statement would need a copy of it; pg_stat_statements loses the values).
 *
 * Only the process's side is parsed, as far as it needs: Parse (a statement's text, kept by name), Bind (an execution
 * with its values) and Query (a simple query). Bytes pass through unchanged. Loopback, no TLS.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface CapturedStatement {
  /** Which of the process's connections ran it (numbered in the order they opened). */
  connection: number;
  text: string;
  /** Text-format values of $1, $2…; null for NULL. */
  params: (string | null)[];
  /** A value sent in binary format (not reproducible as text). */
  binary: boolean;
  /** Run from a named statement (parsed and planned once a connection) rather than the unnamed one (each run). */
  named: boolean;
}

export interface WireCapture {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Starts keeping the statements run from now on (and forgets those kept before). */
  start(): void;
  /** Stops keeping statements and gives those kept since `start`. */
  stop(): CapturedStatement[];
  close(): Promise<void>;
}

/** The protocol codes of the untyped requests after which the startup message is still to come. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** A cursor over one message's body: the protocol's null-terminated strings and big-endian integers. */
class Reader {
  private at = 0;
  constructor(private readonly body: Buffer) {}

  string(): string {
    const end = this.body.indexOf(0, this.at);
    const value = this.body.toString('utf8', this.at, end);
    this.at = end + 1;
    return value;
  }

  int16(): number {
    const value = this.body.readInt16BE(this.at);
    this.at += 2;
    return value;
  }

  int32(): number {
    const value = this.body.readInt32BE(this.at);
    this.at += 4;
    return value;
  }

  bytes(length: number): Buffer {
    const value = this.body.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }
}

/** Reads one connection's frontend messages as they come, in whatever chunks. */
function frontendParser(onMessage: (type: string, body: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let untyped = true;
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const header = untyped ? 0 : 1;
      if (pending.length < header + 4) return;
      const end = header + pending.readInt32BE(header);
      if (pending.length < end) return;
      if (untyped) {
        const code = pending.length >= 8 ? pending.readInt32BE(4) : 0;
        untyped = code === SSL_REQUEST || code === GSSENC_REQUEST;
      } else {
        onMessage(String.fromCharCode(pending[0]!), pending.subarray(5, end));
      }
      pending = pending.subarray(end);
    }
  };
}

/** Bind's values as text, and whether any came in binary format. */
function bindValues(reader: Reader): { params: (string | null)[]; binary: boolean } {
  const formats = Array.from({ length: reader.int16() }, () => reader.int16());
  const params: (string | null)[] = [];
  let binary = false;
  const count = reader.int16();
  for (let i = 0; i < count; i += 1) {
    const length = reader.int32();
    const format = formats.length === 1 ? formats[0] : (formats[i] ?? 0);
    if (format === 1) binary = true;
    params.push(length < 0 ? null : reader.bytes(length).toString('utf8'));
  }
  return { params, binary };
}

export async function startWireCapture(target: { host: string; port: number }): Promise<WireCapture> {
  let kept: CapturedStatement[] | null = null;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const connection = (connections += 1);
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    // Statements by name: node-postgres parses the unnamed one before each execution, named ones once.
    const prepared = new Map<string, string>();
    const parse = frontendParser((type, body) => {
      const reader = new Reader(body);
      if (type === 'P') {
        const name = reader.string();
        prepared.set(name, reader.string());
      } else if (type === 'B') {
        reader.string(); // the portal
        const name = reader.string();
        kept?.push({ connection, text: prepared.get(name) ?? '', named: name !== '', ...bindValues(reader) });
      } else if (type === 'Q') {
        kept?.push({ connection, text: reader.string(), params: [], binary: false, named: false });
      }
    });
    client.on('data', (chunk: Buffer) => {
      parse(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    start: () => {
      kept = [];
    },
    stop: () => {
      const statements = kept ?? [];
      kept = null;
      return statements;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
