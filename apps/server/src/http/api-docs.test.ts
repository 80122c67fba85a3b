import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { responseSchemaProblem } from './route-schemas.js';

/**
 * Issue 34 item 3: the API is described by its routes. Every operation of GET /api/docs has an operationId, a
 * summary, a response schema for its success and a request schema for what it reads; Redocly finds no error in the
 * document; and the answers the tests receive are checked against those schemas (test/test-app.ts does it for every
 * call of every integration test; a sample here proves the schemas are there to check).
 */

interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Document = { openapi: string; servers?: unknown[]; paths: Record<string, Record<string, Operation>> };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Operations whose success is not a JSON body (files, redirects, webhooks' plain answers): their 2xx has no JSON schema. */
const NOT_JSON = new Set<string>([
  // cv1
  // cv2
  'GET /api/campaigns/{id}/recipients.csv',
  'GET /api/contactsZDG',
  // cv3
  'GET /api/media/{name}',
  'GET /api/simulator/{whatsappId}/files/{name}',
  'GET /api/webhooks/instagram',
  'POST /api/webhooks/instagram',
  'GET /api/webhooks/whatsapp/{connectionId}',
]);

describe('the API described by its routes (issue 34 item 3)', () => {
  const t = useTestApp({ admin: true });
  let document: Document;
  const dir = mkdtemp(path.join(os.tmpdir(), 'wadesk-openapi-'));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));
  beforeAll(async () => {
    document = (await t.call<Document>('GET', '/api/docs')).body;
  });

  const operations = (): [string, string, Operation][] =>
    Object.entries(document.paths).flatMap(([p, item]) =>
      Object.entries(item)
        .filter(([m]) => METHODS.includes(m))
        .map(([m, op]) => [m.toUpperCase(), p, op] as [string, string, Operation]),
    );

  it('GET /api/docs is the OpenAPI 3.1 document of every /api route, public', async () => {
    const res = await t.call<Document>('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(document);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers?.length).toBeGreaterThan(0);
    expect(operations().length).toBeGreaterThan(120);
    expect(Object.keys(document.paths).every((p) => p.startsWith('/api/'))).toBe(true);
    expect(document.paths['/api/docs']).toBeUndefined();
  });

  it('gives every operation a unique operationId and a summary', () => {
    const missing = operations().filter(([, , op]) => !op.operationId || !op.summary).map(([m, p]) => `${m} ${p}`);
    expect(missing).toEqual([]);
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares a response schema for every success', () => {
    const missing = operations()
      .filter(([m, p, op]) => {
        if (NOT_JSON.has(`${m} ${p}`)) return false;
        const success = Object.entries(op.responses ?? {}).filter(([status]) => /^2/.test(status));
        return success.length === 0 || success.some(([status, r]) => status !== '204' && !r.content);
      })
      .map(([m, p]) => `${m} ${p}`);
    expect(missing).toEqual([]);
  });

  it('declares the body of every POST, PUT and PATCH that takes one', () => {
    // An action without input (a scan, a restart) declares none: its handler cannot read a body it does not type.
    const missing = operations()
      .filter(([m, , op]) => ['POST', 'PUT', 'PATCH'].includes(m) && !op.requestBody)
      .map(([m, p, op]) => `${m} ${p} (${op.operationId})`);
    expect(missing.sort()).toEqual([...NO_BODY].sort());
  });

  it('reads no input outside the schemas: no route file parses or casts its body, query or params by hand', async () => {
    const files = (await readdir(path.join(root, 'apps/server/src'), { recursive: true })).filter((f) => f.endsWith('.routes.ts'));
    expect(files.length).toBeGreaterThan(15);
    const handParsed: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(root, 'apps/server/src', file), 'utf8');
      if (/\bparse\(\s*\w+,\s*request\.(body|query|params)\b/.test(text) || /request\.(body|query|params) as\b/.test(text)) handParsed.push(file);
    }
    expect(handParsed).toEqual([]);
  });

  it('has no error for Redocly (recommended rules)', async () => {
    const file = path.join(await dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const result = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', file, '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 120_000,
    });
    const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: { severity: string; message: string; location: { pointer: string }[] }[] };
    if (process.env.OPENAPI_LINT_REPORT) await writeFile(process.env.OPENAPI_LINT_REPORT, result.stdout);
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('serves the interactive reference at /api/reference, to anyone', async () => {
    const page = await t.app.http.inject({ method: 'GET', url: '/api/reference/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
    const spec = await t.call<Document>('GET', '/api/reference/json');
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths)).toEqual(Object.keys(document.paths));
  });

  it('checks real answers against their declared schemas: a sample of the desk', async () => {
    const sample: [string, string][] = [
      ['GET', '/api/quickAnswers'],
      ['GET', '/api/users'],
      ['GET', '/api/queue'],
      ['GET', '/api/contacts'],
      ['GET', '/api/tickets?status=open'],
      ['GET', '/api/settings'],
      ['GET', '/api/whatsapp'],
      ['GET', '/api/campaigns'],
      ['GET', '/api/schedules'],
      ['GET', '/api/dashboard'],
      ['GET', '/api/health'],
    ];
    const unchecked: string[] = [];
    for (const [method, url] of sample) {
      // test-app's call() fails on an answer that breaks its schema; here, the schema must also be there.
      const res = await t.call(method as 'GET', url, { token: t.admin });
      expect(res.status, `${method} ${url}`).toBe(200);
      const pathname = url.split('?')[0]!;
      const op = document.paths[pathname]?.[method.toLowerCase()];
      if (!op?.responses?.['200']?.content) unchecked.push(`${method} ${url}`);
    }
    expect(unchecked).toEqual([]);
  });

  it('finds a wrong answer wrong (the check itself)', () => {
    const schema = { response: { 200: z.object({ id: z.number() }) } };
    expect(responseSchemaProblem(schema, 200, { id: 1 })).toBeNull();
    expect(responseSchemaProblem(schema, 200, { id: '1' })).toContain('id');
    expect(responseSchemaProblem(schema, 201, { id: '1' })).toBeNull();
    expect(responseSchemaProblem({ response: { '2xx': z.object({ ok: z.boolean() }) } }, 201, {})).toContain('ok');
  });
});

/** POST/PUT/PATCH operations that read no body (an action on the resource the path names). */
const NO_BODY: string[] = [
  // cv1 (auth, users, settings, queues, contacts, tickets, messages)
  'POST /api/auth/refresh_token (refreshToken)',
  'POST /api/settings/userApiToken/regenerate (regenerateApiToken)',
  'POST /api/contacts/import (importContactsFromDevice)',
  'POST /api/tickets/{id}/protocol (resolveTicketWithProtocol)',
  // cv2 (send API, campaigns, groups, schedules, history, jobs)
  'POST /api/campaigns/{id}/pause (pauseCampaign)',
  'POST /api/campaigns/{id}/resume (resumeCampaign)',
  'POST /api/campaigns/{id}/cancel (cancelCampaign)',
  'POST /api/groups/actions/{id}/cancel (cancelGroupAction)',
  'POST /api/history/imports/{id}/cancel (cancelHistoryImport)',
  // cv3 (connections, simulator, outreach, e-mail, dashboard, health, media, webhooks)
  'POST /api/outreach/{id}/cancel (cancelOutreach)',
  'POST /api/simulator/{whatsappId}/scan (scanSimulatorQrCode)',
  'POST /api/whatsappsession/{id} (retryConnectionSession)',
  'PUT /api/whatsappsession/{id} (renewConnectionQrCode)',
  // Outgoing webhooks (issue 37 §3): send a test event, send a delivery again.
  'POST /api/webhooks/{id}/test (testWebhook)',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver (redeliverWebhookDelivery)',
  // Two-factor sign-in (issue 37 §1): a new secret for the signed-in user.
  'POST /api/auth/mfa/setup (setupMfa)',
  // Notes and mentions (issue 36 §1): the caller's mentions of a ticket seen.
  'POST /api/tickets/{ticketId}/mentions/seen (markMentionsSeen)',
];
