import DataLoader from 'dataloader';
import type { Executor } from './client.js';

/** At most this many keys a statement (a larger turn is read in several). */
const MAX_BATCH = 128;

/**
 * A read that concurrent requests share (issue 11: under load, handing each statement to PostgreSQL costs the server
 * more than anything it computes). The keys asked for during one turn of the event loop (every request whose data
 * arrived in that turn) are read by one statement once the turn is over (`setImmediate`): a request alone waits for
 * nothing but the rest of its turn, and N requests at once cost one round trip instead of N.
 *
 * Each statement starts after every key in it was asked for, so what it returns is at least as fresh as a read of
 * each request's own (nothing is kept between batches). `read` answers the keys in their order, one value each; a
 * key may be asked for several times in a batch.
 */
export function batchedRead<K, V>(read: (keys: readonly K[]) => Promise<readonly V[]>): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(read, { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) });
  return (key) => loader.load(key);
}

/**
 * One of something per database handle (a batcher: requests share it only on the same handle, and a transaction,
 * being its own handle, shares with nobody), made the first time the handle asks for it.
 */
export function perDatabase<T>(make: (db: Executor) => T): (db: Executor) => T {
  const made = new WeakMap<Executor, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}

/** A batch's keys as one JSON parameter (`json_to_recordset($1::json)`), each row with its index `i` in the batch. */
export function keysParam<K extends object>(keys: readonly K[]): string {
  return JSON.stringify(keys.map((key, i) => ({ ...key, i })));
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes that concurrent requests share one statement for (issue 11), like `batchedRead`: the items given during one
 * turn of the event loop are written together once it is over, in the order they were given, at most `max` a
 * statement. Items that must not meet in one statement (the same ticket twice, the same NOTIFY twice) say so by
 * `conflicts`: an item that shares a key with one already in the batch waits for the next. When a batch fails and
 * `single` is given, each of its items is tried alone, so that one bad item fails only itself.
 *
 * `inOrder` keeps the items' order across statements too: a batch ends at its first conflicting item, and the next
 * statement goes only once the one before it has ended (meanwhile the batch grows, as a group commit does).
 */
export class BatchedWrites<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private scheduled = false;
  /** A statement of an `inOrder` batcher is under way. */
  private running = false;
  /** Statements sent (batches, not counting single retries): for the tests. */
  batches = 0;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<readonly R[]>,
    private readonly options: {
      max: number;
      conflicts?: (item: T) => readonly string[];
      single?: (item: T) => Promise<R>;
      inOrder?: boolean;
    },
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    const batch: Waiting<T, R>[] = [];
    const later: Waiting<T, R>[] = [];
    const taken = new Set<string>();
    for (const waiting of this.waiting) {
      const keys = this.options.conflicts?.(waiting.item) ?? [];
      const fits = batch.length < this.options.max && !keys.some((key) => taken.has(key));
      if (fits && (later.length === 0 || !this.options.inOrder)) {
        for (const key of keys) taken.add(key);
        batch.push(waiting);
      } else later.push(waiting);
    }
    this.waiting = later;
    this.batches += 1;
    if (this.options.inOrder) this.running = true;
    else this.schedule();
    const ended = () => {
      if (!this.options.inOrder) return;
      this.running = false;
      this.schedule();
    };
    this.write(batch.map((waiting) => waiting.item)).then(
      (results) => {
        ended();
        batch.forEach((waiting, i) => waiting.resolve(results[i]!));
      },
      (err: unknown) => {
        ended();
        const single = this.options.single;
        if (!single || batch.length === 1) batch.forEach((waiting) => waiting.reject(err));
        else for (const waiting of batch) single(waiting.item).then(waiting.resolve, waiting.reject);
      },
    );
  }
}
