import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { fetchLatest, isNotOlder } from './live-record';

interface Job {
  id: number;
  done: number;
  updatedAt: string;
}

const key = ['job', 1] as const;
const at = (second: number) => `2026-11-26T10:00:${String(second).padStart(2, '0')}.000Z`;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('fetchLatest', () => {
  it('keeps the copy a socket event put in the cache while the request was on its way, when the answer is older', async () => {
    const client = new QueryClient();
    const answer = deferred<Job>();
    const query = client.fetchQuery({ queryKey: key, queryFn: () => fetchLatest(client, key, () => answer.promise) });
    // The job ends while the request is on its way: its event arrives first.
    client.setQueryData<Job>(key, { id: 1, done: 1, updatedAt: at(5) });
    answer.resolve({ id: 1, done: 0, updatedAt: at(4) });
    await query;
    expect(client.getQueryData<Job>(key)).toEqual({ id: 1, done: 1, updatedAt: at(5) });
  });

  it('takes the answer when it is as new as the cached copy or newer', async () => {
    const client = new QueryClient();
    client.setQueryData<Job>(key, { id: 1, done: 0, updatedAt: at(4) });
    await client.fetchQuery({ queryKey: key, queryFn: () => fetchLatest(client, key, async () => ({ id: 1, done: 1, updatedAt: at(6) })) });
    expect(client.getQueryData<Job>(key)?.done).toBe(1);
    await client.fetchQuery({ queryKey: key, queryFn: () => fetchLatest(client, key, async () => ({ id: 1, done: 2, updatedAt: at(6) })) });
    expect(client.getQueryData<Job>(key)?.done).toBe(2);
  });

  it('takes the answer when nothing is cached', async () => {
    const client = new QueryClient();
    const job = await client.fetchQuery({ queryKey: key, queryFn: () => fetchLatest(client, key, async () => ({ id: 1, done: 0, updatedAt: at(1) })) });
    expect(job.done).toBe(0);
  });
});

describe('isNotOlder', () => {
  it('compares the times of the last change', () => {
    expect(isNotOlder({ updatedAt: at(2) }, { updatedAt: at(1) })).toBe(true);
    expect(isNotOlder({ updatedAt: at(2) }, { updatedAt: at(2) })).toBe(true);
    expect(isNotOlder({ updatedAt: at(1) }, { updatedAt: at(2) })).toBe(false);
    expect(isNotOlder({ updatedAt: at(1) }, undefined)).toBe(true);
  });
});
