import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { InFlightRequests } from './in-flight.js';

/**
 * The requests a graceful shutdown waits for, on a real Fastify server over real sockets: a request counts until its
 * handler is done, whether its client waits for the answer or leaves first.
 */

let http: FastifyInstance | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(handlerMs: number): Promise<{ inFlight: InFlightRequests; port: number; handled: () => number }> {
  const inFlight = new InFlightRequests();
  http = Fastify();
  inFlight.register(http);
  let handled = 0;
  http.post('/slow', async () => {
    await delay(handlerMs);
    handled++;
    return { ok: true };
  });
  await http.listen({ port: 0, host: '127.0.0.1' });
  return { inFlight, port: (http.server.address() as AddressInfo).port, handled: () => handled };
}

/** Sends a whole POST on a raw socket; `leaveAfterMs` closes the socket before the answer. */
function post(port: number, leaveAfterMs?: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      if (leaveAfterMs !== undefined) setTimeout(() => socket.destroy(), leaveAfterMs);
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('"ok":true')) socket.end();
    });
    socket.on('close', () => resolve(answer));
  });
}

describe('InFlightRequests', () => {
  it('counts a request until it is answered', async () => {
    const { inFlight, port } = await serve(200);
    const answer = post(port);
    await delay(100);
    expect(inFlight.size).toBe(1);
    expect(await answer).toContain('200 OK');
    expect(await inFlight.idle(1000)).toBe(true);
    expect(inFlight.size).toBe(0);
  });

  it('counts a request whose client left until its handler is done, then lets the shutdown go on', async () => {
    // Before: a client that left after sending its whole request (autocannon at the end of a run) was never
    // answered, so Fastify ran neither onResponse nor onRequestAbort, and every shutdown waited its full timeout.
    const { inFlight, port, handled } = await serve(300);
    const answer = await post(port, 50);
    expect(answer).toBe('');
    expect(inFlight.size).toBe(1); // the handler still runs: a shutdown must wait for it
    const started = Date.now();
    expect(await inFlight.idle(5000)).toBe(true);
    expect(handled()).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(inFlight.size).toBe(0);
  });

  it('waits for several at once and wakes every waiter', async () => {
    const { inFlight, port } = await serve(150);
    const answers = [post(port), post(port, 20), post(port)];
    await delay(80);
    expect(inFlight.size).toBe(3);
    const [a, b] = await Promise.all([inFlight.idle(3000), inFlight.idle(3000)]);
    expect([a, b]).toEqual([true, true]);
    await Promise.all(answers);
  });
});
