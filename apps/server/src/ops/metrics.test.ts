import { describe, expect, it } from 'vitest';
import { connectedSimulator, inbound, phoneNumbers } from '../test/desk-factories.js';
import { eventually } from '../test/session-helpers.js';
import { useTestApp } from '../test/test-app.js';

/** Issue 17: Prometheus metrics at /metrics, on (METRICS_ENABLED) and behind METRICS_TOKEN. */
const TOKEN = 'a-metrics-token-of-32-characters';
const t = useTestApp({ config: { metricsEnabled: true, metricsToken: TOKEN }, admin: true });
const nextNumber = phoneNumbers(71_000, 1);

async function scrape(authorization?: string) {
  return t.app.http.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
}

/** The value of one series in Prometheus' text format (0 when absent). */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('answers 401 without the token, with a wrong one, or with another scheme', async () => {
    for (const header of [undefined, 'Bearer not-the-metrics-token-at-all', `Basic ${TOKEN}`, TOKEN]) {
      const res = await scrape(header);
      expect(res.statusCode, String(header)).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_API_TOKEN' });
    }
  });

  it('does not take a user’s access token either', async () => {
    expect((await scrape(`Bearer ${t.admin}`)).statusCode).toBe(401);
  });

  it('answers the metrics in Prometheus’ text format with the token', async () => {
    await t.call('GET', '/api/health');
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const name of [
      'wadesk_messages_inbound_total',
      'wadesk_messages_outbound_total',
      'wadesk_message_send_duration_seconds',
      'wadesk_message_send_failures_total',
      'wadesk_job_queue_depth',
      'wadesk_job_failed',
      'wadesk_socket_clients',
      'wadesk_connections',
      'wadesk_http_request_duration_seconds',
      'process_cpu_user_seconds_total',
    ]) {
      expect(res.body, name).toContain(`# TYPE ${name} `);
    }
    // Latency by route pattern, never the raw URL.
    expect(res.body).toMatch(/wadesk_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} \d+/);
    expect(res.body).toMatch(/wadesk_job_queue_depth\{queue="[^"]+"\} \d+/);
  });

  it('counts an inbound simulator message, an outbound send with its latency, the connection’s state and a socket client', async () => {
    const connection = await connectedSimulator(t);
    const before = (await scrape(`Bearer ${TOKEN}`)).body;
    const ticket = await inbound(t, connection.id, { from: nextNumber(), body: 'hello, metrics' });
    const socket = await t.socket(t.admin);
    const sent = await t.call('POST', `/api/messages/${ticket.id}`, { token: t.admin, body: { body: 'an answer' } });
    expect(sent.status).toBeLessThan(300);
    const after = await eventually(async () => {
      const text = (await scrape(`Bearer ${TOKEN}`)).body;
      return valueOf(text, 'wadesk_messages_outbound_total{channel="simulator"}') > 0 ? text : null;
    }, 5000, 'the outbound counter moves');
    expect(valueOf(after, 'wadesk_messages_inbound_total{channel="simulator"}')).toBe(valueOf(before, 'wadesk_messages_inbound_total{channel="simulator"}') + 1);
    expect(valueOf(after, 'wadesk_messages_outbound_total{channel="simulator"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'wadesk_message_send_duration_seconds_count{channel="simulator"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'wadesk_connections{channel="simulator",status="CONNECTED"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'wadesk_socket_clients')).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/route="\/api\/messages\/:id"/);
    expect(after).not.toContain(`route="/api/messages/${ticket.id}"`);
    socket.disconnect();
  });

  it('labels requests that match no route as one series', async () => {
    await t.app.http.inject({ method: 'GET', url: '/api/no-such-route-12345' });
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toContain('route="<unmatched>"');
    expect(text).not.toContain('no-such-route-12345');
  });
});
