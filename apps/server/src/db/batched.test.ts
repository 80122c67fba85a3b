import { describe, expect, it } from 'vitest';
import { BatchedWrites, batchedRead, keysParam } from './batched.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedRead', () => {
  it('reads the keys asked for in one turn of the event loop with one call, in their order, after the last was asked', async () => {
    const calls: number[][] = [];
    let lastAsked = false;
    const read = batchedRead<number, string>(async (keys) => {
      expect(lastAsked).toBe(true); // a batch's read starts only once every request in it has asked
      calls.push([...keys]);
      return keys.map((key) => `v${key}`);
    });
    const first = [read(3), read(1), read(3)];
    lastAsked = true;
    expect(await Promise.all(first)).toEqual(['v3', 'v1', 'v3']);
    expect(calls).toEqual([[3, 1, 3]]);
    // Nothing is kept: the same key in a later turn is read again.
    expect(await read(3)).toBe('v3');
    expect(calls).toEqual([[3, 1, 3], [3]]);
  });

  it('fails every key of a read that failed, and reads the next turn afresh', async () => {
    let fail = true;
    const read = batchedRead<number, number>(async (keys) => {
      if (fail) throw new Error('database gone');
      return keys.map((key) => key * 2);
    });
    const answers = await Promise.allSettled([read(1), read(2)]);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read(2)).toBe(4);
  });

  it('gives each key its index for a JSON parameter', () => {
    expect(JSON.parse(keysParam([{ w: 1, id: 'a"b' }, { w: 2, id: 'c' }]))).toEqual([
      { w: 1, id: 'a"b', i: 0 },
      { w: 2, id: 'c', i: 1 },
    ]);
  });
});

describe('BatchedWrites', () => {
  it('writes the items of one turn together, in order; a conflicting item waits for the next statement', async () => {
    const statements: string[][] = [];
    const writes = new BatchedWrites<{ ticket: number; body: string }, string>(
      async (items) => {
        statements.push(items.map((item) => item.body));
        await nextTurn();
        return items.map((item) => `stored ${item.body}`);
      },
      { max: 10, conflicts: (item) => [`t${item.ticket}`] },
    );
    const answers = await Promise.all([
      writes.add({ ticket: 1, body: 'a' }),
      writes.add({ ticket: 2, body: 'b' }),
      writes.add({ ticket: 1, body: 'c' }),
      writes.add({ ticket: 3, body: 'd' }),
      writes.add({ ticket: 1, body: 'e' }),
    ]);
    expect(answers).toEqual(['stored a', 'stored b', 'stored c', 'stored d', 'stored e']);
    expect(statements).toEqual([['a', 'b', 'd'], ['c'], ['e']]);
    expect(writes.batches).toBe(3);
  });

  it('writes at most `max` items a statement', async () => {
    const sizes: number[] = [];
    const writes = new BatchedWrites<number, number>(
      async (items) => {
        sizes.push(items.length);
        return [...items];
      },
      { max: 4 },
    );
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => writes.add(i)));
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('tries each item of a failed statement alone, so a bad item fails only itself', async () => {
    const stored: string[] = [];
    const writeAll = async (items: readonly string[]) => {
      if (items.includes('bad')) throw new Error('invalid byte sequence');
      stored.push(...items);
      return items.map((item) => item.toUpperCase());
    };
    const writes = new BatchedWrites<string, string>(writeAll, { max: 10, single: async (item) => (await writeAll([item]))[0]! });
    const answers = await Promise.allSettled(['a', 'bad', 'b'].map((item) => writes.add(item)));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('invalid byte sequence') },
      { status: 'fulfilled', value: 'B' },
    ]);
    expect(stored).toEqual(['a', 'b']);
  });

  it('without a way to write one alone, fails every item of a failed statement', async () => {
    const writes = new BatchedWrites<string, string>(
      async () => {
        throw new Error('database gone');
      },
      { max: 10 },
    );
    const answers = await Promise.allSettled(['a', 'b'].map((item) => writes.add(item)));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('BatchedWrites in order', () => {
  it('ends a batch at its first conflict and sends one statement at a time, growing the next meanwhile', async () => {
    const statements: string[][] = [];
    let running = 0;
    const writes = new BatchedWrites<string, string>(
      async (items) => {
        running += 1;
        expect(running).toBe(1);
        statements.push([...items]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return [...items];
      },
      { max: 10, conflicts: (item) => [item], inOrder: true },
    );
    const first = ['a', 'b', 'a', 'c'].map((item) => writes.add(item));
    await new Promise((resolve) => setImmediate(resolve));
    // Given while the first statement runs: they wait for it and go together.
    const second = ['d', 'e'].map((item) => writes.add(item));
    await Promise.all([...first, ...second]);
    expect(statements).toEqual([['a', 'b'], ['a', 'c', 'd', 'e']]);
  });
});
