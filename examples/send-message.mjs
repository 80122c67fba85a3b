#!/usr/bin/env node
// Sends a WhatsApp text with the desk's send API and waits for the job that sends it (docs/api.md).
// Plain Node 20+ (fetch), no dependencies.
//
//   WADESK_URL=http://localhost:8080 WADESK_API_TOKEN=<Settings › API token> \
//     node examples/send-message.mjs 5541999990001 "Your order is on its way"
//
// Options: --connection <id> (the connection to send from; the default connection without it),
//          --timeout <seconds> (how long to wait for the job, 60 by default).
// Exit code: 0 sent, 1 not sent (refused, failed, unknown, or still waiting at the timeout), 2 wrong usage.
import { parseArgs } from 'node:util';

const USAGE = 'usage: WADESK_API_TOKEN=<token> [WADESK_URL=http://localhost:8080] node examples/send-message.mjs [--connection <id>] [--timeout <s>] <number> <message>';

/** The job states of pg-boss after which nothing more happens to the job. */
const FINAL_STATES = new Set(['completed', 'failed', 'cancelled']);

function usage(problem) {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { connection: { type: 'string' }, timeout: { type: 'string', default: '60' } },
});
const [number, message] = positionals;
const token = process.env.WADESK_API_TOKEN;
const base = (process.env.WADESK_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
const timeoutMs = Number(values.timeout) * 1000;
if (!token) usage('WADESK_API_TOKEN is not set (the API token of Settings, or a signed-in admin\'s access token).');
if (!number || !message || positionals.length > 2) usage('Give a number and a message.');
if (!(timeoutMs > 0)) usage('--timeout takes a number of seconds.');
if (values.connection !== undefined && !/^\d+$/.test(values.connection)) usage('--connection takes a connection id.');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One call to the API; a 429 is waited out (Retry-After) and tried again. */
async function call(method, path, body) {
  for (;;) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after')) || 1;
      console.error(`Too many calls: trying again in ${seconds} s`);
      await sleep(seconds * 1000);
      continue;
    }
    let json;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json, text };
  }
}

// 1. Send: 202 { jobId, campaignId }, the message queued as a job (sent once, also if the server restarts).
const send = await call('POST', '/api/zdg', {
  number,
  message,
  ...(values.connection ? { ticketwhatsappId: Number(values.connection) } : {}),
});
if (send.status !== 202) {
  // The desk's errors: { error: 'ERR_…', message, issues? }.
  console.error(`Refused: ${send.status} ${send.json?.error ?? ''} ${send.json?.message ?? send.text}`.trim());
  for (const issue of send.json?.issues ?? []) console.error(`  ${issue.path}: ${issue.message}`);
  process.exit(1);
}
const { jobId, campaignId } = send.json;
console.log(`Queued: job ${jobId} (send ${campaignId})`);

// 2. Wait for the job: GET /api/jobs/:id until it is over.
const deadline = Date.now() + timeoutMs;
let job = null;
while (Date.now() < deadline) {
  const res = await call('GET', `/api/jobs/${jobId}`);
  if (res.status !== 200) {
    console.error(`The job could not be read: ${res.status} ${res.json?.error ?? ''} ${res.json?.message ?? res.text}`.trim());
    process.exit(1);
  }
  job = res.json;
  if (FINAL_STATES.has(job.state)) break;
  await sleep(500);
}

if (!job || !FINAL_STATES.has(job.state)) {
  console.error(`Still ${job?.state ?? 'unknown'} after ${values.timeout} s: job ${jobId} goes on in the desk.`);
  process.exit(1);
}
// A completed job's output says what became of the message: { outcome: 'sent' | 'failed' | 'unknown' | 'waiting', number, error? }.
const outcome = job.output?.outcome;
if (job.state === 'completed' && outcome === 'sent') {
  console.log(`Sent to ${job.output.number}.`);
  process.exit(0);
}
if (job.state === 'completed' && outcome === 'waiting') {
  // The connection is down: the send waits for it, as a later job of the same send.
  const why = (job.output.error ?? 'the connection is not connected').replace(/\.$/, '');
  console.error(`Not sent yet: ${why}; the desk sends it (send ${campaignId}) when the connection is back.`);
  process.exit(1);
}
console.error(`Not sent: job ${job.state}, ${outcome ?? 'no outcome'}${job.output?.error ? `: ${job.output.error}` : job.lastError ? `: ${job.lastError}` : ''}`);
process.exit(1);
