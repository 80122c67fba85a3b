import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionMonitor, isConnectionLost, retryDelay, shouldRetry } from './connection-state';

const config = { headers: new AxiosHeaders() };

function httpError(status: number, data: unknown): AxiosError {
  const response = { status, statusText: '', headers: {}, config, data } as AxiosResponse;
  return new AxiosError('Request failed', 'ERR_BAD_RESPONSE', config, {}, response);
}

const networkError = () => new AxiosError('Network Error', 'ERR_NETWORK', config, {});
const dbDown = () => httpError(503, { error: 'ERR_DB_UNAVAILABLE', message: 'Database unavailable' });

describe('isConnectionLost', () => {
  it('is true for 503 ERR_DB_UNAVAILABLE', () => {
    expect(isConnectionLost(dbDown())).toBe(true);
  });

  it('is true when the server does not answer at all (down, network lost, timeout)', () => {
    expect(isConnectionLost(networkError())).toBe(true);
    expect(isConnectionLost(new AxiosError('timeout', 'ECONNABORTED', config, {}))).toBe(true);
    expect(isConnectionLost(new AxiosError('timeout', 'ETIMEDOUT', config, {}))).toBe(true);
  });

  it('is true for a proxy answering 502 / 503 / 504 without our error body', () => {
    expect(isConnectionLost(httpError(502, '<html>Bad gateway</html>'))).toBe(true);
    expect(isConnectionLost(httpError(503, ''))).toBe(true);
    expect(isConnectionLost(httpError(504, undefined))).toBe(true);
  });

  it('is false for answers of the server itself', () => {
    expect(isConnectionLost(httpError(500, { error: 'ERR_INTERNAL', message: 'x' }))).toBe(false);
    expect(isConnectionLost(httpError(503, { error: 'ERR_SOMETHING_ELSE', message: 'x' }))).toBe(false);
    expect(isConnectionLost(httpError(403, { error: 'ERR_NO_PERMISSION', message: 'x' }))).toBe(false);
    expect(isConnectionLost(httpError(401, { error: 'ERR_SESSION_EXPIRED', message: 'x' }))).toBe(false);
    expect(isConnectionLost(httpError(400, { error: 'ERR_VALIDATION', message: 'x' }))).toBe(false);
    expect(isConnectionLost(httpError(500, ''))).toBe(false);
    expect(isConnectionLost(httpError(429, { error: 'ERR_RATE_LIMITED', message: 'x' }))).toBe(false);
  });

  it('is false for a request cancelled by the app, and for non-HTTP errors', () => {
    expect(isConnectionLost(new AxiosError('canceled', 'ERR_CANCELED', config, {}))).toBe(false);
    expect(isConnectionLost(new Error('Network Error'))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
    expect(isConnectionLost({ error: 'ERR_DB_UNAVAILABLE' })).toBe(false);
  });
});

describe('query retry policy', () => {
  it('retries connection losses for as long as they last, and nothing else', () => {
    expect(shouldRetry(0, dbDown())).toBe(true);
    expect(shouldRetry(50, networkError())).toBe(true);
    expect(shouldRetry(0, httpError(404, { error: 'ERR_NO_TICKET_FOUND', message: 'x' }))).toBe(false);
    expect(shouldRetry(0, httpError(500, { error: 'ERR_INTERNAL', message: 'x' }))).toBe(false);
  });

  it('backs off exponentially up to 15 s, with ±20 % jitter', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => retryDelay(n, mid))).toEqual([1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect(retryDelay(0, () => 0)).toBe(800);
    expect(retryDelay(10, () => 1)).toBe(18000);
  });
});

describe('ConnectionMonitor', () => {
  it('reconnects while calls fail with a connection loss, until one succeeds', () => {
    const m = new ConnectionMonitor();
    const changed = vi.fn();
    const recovered = vi.fn();
    m.subscribe(changed);
    m.onRecovered(recovered);

    expect(m.isReconnecting()).toBe(false);
    expect(m.reportRequestFailure(httpError(404, { error: 'ERR_NOT_FOUND', message: 'x' }))).toBe(false);
    expect(m.isReconnecting()).toBe(false);
    expect(changed).not.toHaveBeenCalled();

    expect(m.reportRequestFailure(dbDown())).toBe(true);
    expect(m.reportRequestFailure(networkError())).toBe(true);
    expect(m.isReconnecting()).toBe(true);
    expect(changed).toHaveBeenCalledTimes(1);

    m.reportRequestSuccess();
    expect(m.isReconnecting()).toBe(false);
    expect(changed).toHaveBeenCalledTimes(2);
    expect(recovered).toHaveBeenCalledTimes(1);
    m.reportRequestSuccess();
    expect(recovered).toHaveBeenCalledTimes(1);
  });

  it('reconnects while the socket is down after having been connected', () => {
    const m = new ConnectionMonitor();
    const recovered = vi.fn();
    m.onRecovered(recovered);
    m.reportSocket(true);
    expect(m.isReconnecting()).toBe(false);
    m.reportSocket(false);
    expect(m.isReconnecting()).toBe(true);
    expect(m.isSocketDown()).toBe(true);
    m.reportSocket(true);
    expect(m.isReconnecting()).toBe(false);
    expect(recovered).toHaveBeenCalledTimes(1);
  });

  it('stays reconnecting until both calls and socket are back, then recovers once', () => {
    const m = new ConnectionMonitor();
    const recovered = vi.fn();
    m.onRecovered(recovered);
    m.reportSocket(false);
    m.reportRequestFailure(networkError());
    m.reportSocket(true);
    expect(m.isReconnecting()).toBe(true);
    expect(recovered).not.toHaveBeenCalled();
    m.reportRequestSuccess();
    expect(m.isReconnecting()).toBe(false);
    expect(recovered).toHaveBeenCalledTimes(1);
  });

  it('forgets a socket closed on purpose (sign-out)', () => {
    const m = new ConnectionMonitor();
    m.reportSocket(false);
    m.forgetSocket();
    expect(m.isReconnecting()).toBe(false);
  });

  it('unsubscribes', () => {
    const m = new ConnectionMonitor();
    const changed = vi.fn();
    const off = m.subscribe(changed);
    off();
    m.reportRequestFailure(dbDown());
    expect(changed).not.toHaveBeenCalled();
  });
});
