#!/usr/bin/env node
// Receives the desk's outgoing webhooks (docs/api.md, "Outgoing webhooks"): checks each delivery's signature,
// refuses stale or replayed ones, drops events it already had (the desk delivers at least once), and prints each
// new event as one JSON line. Plain Node 20+, no dependencies.
//
//   WEBHOOK_SECRET=<the webhook's secret, copied from the Webhooks page> PORT=4000 node examples/webhook-receiver.mjs
//
// Then add http(s)://<this host>:4000/ as a webhook on the desk. Answers 204 to a good delivery, 401 to a bad
// signature or a timestamp more than 5 minutes away, 400 to a body that is not JSON.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('usage: WEBHOOK_SECRET=<secret> [PORT=4000] node examples/webhook-receiver.mjs');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4000);
const TOLERANCE_SECONDS = 300;

/** The events already handled, by id (a real receiver keeps them in its database, for a day or more). */
const seen = new Set();

/** True when `signature` is sha256=HMAC(secret, "timestamp.body") and the timestamp is recent. */
export function verify(secret, timestamp, signature, rawBody, nowSeconds = Date.now() / 1000) {
  if (!/^\d+$/.test(timestamp ?? '') || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`);
  const given = Buffer.from(String(signature ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(405).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    // The signature covers the bytes as sent: check it before parsing.
    const raw = Buffer.concat(chunks).toString('utf8');
    if (!verify(secret, req.headers['x-desk-timestamp'], req.headers['x-desk-signature'], raw)) return res.writeHead(401).end();
    let event;
    try {
      event = JSON.parse(raw);
    } catch {
      return res.writeHead(400).end();
    }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(JSON.stringify({ id: event.id, event: event.event, createdAt: event.createdAt, data: event.data }));
    }
    res.writeHead(204).end();
  });
});

server.listen(port, () => console.error(`listening on ${port}`));
