import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CampaignCreatedResponse, CampaignDto, CampaignRecipientListResponse, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import { connectedSimulator, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { createTestApp, useTestApp } from '../../test/test-app.js';

const t = useTestApp({ admin: true, user: true, tempDataDir: true, config: { mediaFetchAllowPrivate: true } });
const nextNumber = phoneNumbers(40_000, 1);
let connection: WhatsappDto;
let files: Server;
let filesUrl = '';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(2000, 1)]);

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'Bulk sends' });
  files = createServer((req, res) => {
    if (req.url === '/promo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/voice.ogg') return res.writeHead(200, { 'content-type': 'audio/ogg' }).end(OGG);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => files.close(resolve));
});

function numbers(n: number): string[] {
  return Array.from({ length: n }, () => nextNumber());
}

async function start(body: Record<string, unknown>, token = t.user): Promise<CampaignCreatedResponse> {
  const res = await t.call<CampaignCreatedResponse>('POST', '/api/campaigns', { token, body: { whatsappId: connection.id, minInterval: 0, maxInterval: 0, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function campaign(id: number, token = t.user): Promise<CampaignDto> {
  return (await t.call<CampaignDto>('GET', `/api/campaigns/${id}`, { token })).body;
}

async function finished(id: number, ms = 20_000): Promise<CampaignDto> {
  return eventually(async () => {
    const c = await campaign(id);
    return c.status === 'done' ? c : null;
  }, ms, `campaign ${id} done`);
}

async function sentTo(list: string[], app: App = t.app): Promise<string[]> {
  const entries = await outbox({ ...t, app }, connection.id);
  return entries.filter((e) => list.includes(e.to)).map((e) => e.to);
}

async function campaignRows(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from campaigns`);
  return Number(row!.n);
}

describe('bulk sends (issue 12)', () => {
  it('sends a 20-number campaign with 0–1 s pauses exactly once each, in list order, with live progress', { timeout: 90_000 }, async () => {
    const list = numbers(20);
    const socket = await t.socket(t.user);
    const outsider = await t.socket((await t.createUser()).token);
    let outsiderSaw = 0;
    outsider.on('campaign', () => (outsiderSaw += 1));
    const progress: number[] = [];
    socket.on('campaign', (e: { campaign: CampaignDto }) => progress.push(e.campaign.sent));

    const created = await start({ kind: 'text', numbers: list.join('\n'), message: 'Black Friday: 20% off', minInterval: 0, maxInterval: 1 });
    expect(created).toMatchObject({ total: 20, invalid: [] });
    const done = await finished(created.id, 80_000);

    expect(done).toMatchObject({ status: 'done', total: 20, sent: 20, failed: 0, unknown: 0, invalid: 0 });
    expect(await sentTo(list)).toEqual(list);
    const bodies = (await outbox(t, connection.id)).filter((e) => list.includes(e.to)).map((e) => e.body);
    expect(new Set(bodies)).toEqual(new Set(['Black Friday: 20% off']));
    const recipients = (await t.call<CampaignRecipientListResponse>('GET', `/api/campaigns/${created.id}/recipients`, { token: t.user })).body;
    expect(recipients.recipients).toHaveLength(20);
    expect(recipients.hasMore).toBe(false);
    expect(recipients.recipients.every((r) => r.status === 'sent' && r.sentAt)).toBe(true);
    // Progress arrived over the socket as it went, to the creator only.
    expect(progress.length).toBeGreaterThanOrEqual(20);
    expect(progress.at(-1)).toBe(20);
    expect(outsiderSaw).toBe(0);
  });

  it('is done as soon as the last recipient is through, not a pause later (issue 33 item 18)', async () => {
    // Half a minute's pause between sends: the step that sends the last recipient ends the campaign.
    for (const [number, outcome] of [[nextNumber(), { sent: 1, failed: 0 }], ['5511955550000', { sent: 0, failed: 1 }]] as const) {
      const created = await start({ kind: 'text', numbers: number, message: 'Only you', minInterval: 30, maxInterval: 30 });
      const [row] = await queryRows<{ chain: string }>(t, sql`select chain from campaigns where id = ${created.id}`);
      await t.app.services.campaigns.step(created.id, row!.chain);
      expect(await campaign(created.id)).toMatchObject({ status: 'done', nextSendAt: null, ...outcome });
    }
  });

  it('holds a paused campaign and finishes it on resume, each number once', { timeout: 60_000 }, async () => {
    const list = numbers(6);
    const created = await start({ kind: 'text', numbers: list.join('\n'), message: 'Pausa e retomada', minInterval: 1, maxInterval: 1 });
    await eventually(async () => (await campaign(created.id)).sent >= 1, 10_000, 'first send');
    const paused = await t.call<CampaignDto>('POST', `/api/campaigns/${created.id}/pause`, { token: t.user });
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe('paused');
    const heldAt = (await campaign(created.id)).sent;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await campaign(created.id)).sent).toBe(heldAt);
    expect((await sentTo(list)).length).toBe(heldAt);
    expect(heldAt).toBeLessThan(6);

    const again = await t.call<CampaignDto>('POST', `/api/campaigns/${created.id}/pause`, { token: t.user });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'ERR_CAMPAIGN_STATE' });

    expect((await t.call('POST', `/api/campaigns/${created.id}/resume`, { token: t.user })).status).toBe(200);
    const done = await finished(created.id, 30_000);
    expect(done.sent).toBe(6);
    expect(await sentTo(list)).toEqual(list);
  });

  it('reports lines that are not numbers and numbers not on WhatsApp, and sends the rest', async () => {
    const [good, other] = numbers(2);
    const notOnWhatsapp = '5511900000000'; // the simulator has no account on numbers ending in 0000
    const created = await start({ kind: 'text', numbers: [good, 'call me', notOnWhatsapp, '123', good, other].join('\n'), message: 'Olá' });
    expect(created.total).toBe(3);
    expect(created.invalid).toEqual([
      { line: 2, reason: 'NOT_A_NUMBER' },
      { line: 4, reason: 'TOO_SHORT' },
      { line: 5, reason: 'DUPLICATE' },
    ]);
    const done = await finished(created.id);
    expect(done).toMatchObject({ total: 3, sent: 2, failed: 1, invalid: 3 });
    const { recipients } = (await t.call<CampaignRecipientListResponse>('GET', `/api/campaigns/${created.id}/recipients`, { token: t.user })).body;
    expect(recipients.map((r) => [r.line, r.status])).toEqual([
      [1, 'sent'],
      [2, 'invalid'],
      [3, 'failed'],
      [4, 'invalid'],
      [5, 'invalid'],
      [6, 'sent'],
    ]);
    expect(recipients[2]!.error).toBe('This number is not on WhatsApp');
    expect(await sentTo([good!, other!, notOnWhatsapp])).toEqual([good, other]);

    const csv = await t.app.http.inject({ method: 'GET', url: `/api/campaigns/${created.id}/recipients.csv`, headers: { authorization: `Bearer ${t.user}` } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFFline,number,status,error,sentAt');
    expect(csv.body).toContain(`3,${notOnWhatsapp},failed,This number is not on WhatsApp,`);
  });

  it('refuses a campaign without the fields of its kind with ERR_VALIDATION naming the field, and stores nothing', async () => {
    const before = await campaignRows();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'text', numbers: '5511987650000' }, 'message'],
      [{ kind: 'mediaUrl', numbers: '5511987650000', title: 'Catálogo' }, 'url'],
      [{ kind: 'mediaUrl', numbers: '5511987650000', url: `${filesUrl}/promo.png` }, 'title'],
      [{ kind: 'mediaPath', numbers: '5511987650000', title: 'Catálogo' }, 'path'],
      [{ kind: 'audio', numbers: '5511987650000' }, 'url'],
      [{ kind: 'audio', numbers: '5511987650000', url: `${filesUrl}/voice.mp3` }, 'url'],
      [{ kind: 'text', numbers: '', message: 'Olá' }, 'numbers'],
      [{ kind: 'text', numbers: 'abc\n12', message: 'Olá' }, 'numbers'],
      [{ kind: 'text', numbers: '5511987650000', message: 'Olá', minInterval: 5, maxInterval: 2 }, 'maxInterval'],
      [{ kind: 'text', numbers: '5511987650000', message: 'Olá', maxInterval: 3601 }, 'maxInterval'],
      [{ kind: 'sms', numbers: '5511987650000', message: 'Olá' }, 'kind'],
      [{ kind: 'mediaUrl', numbers: '5511987650000', url: 'ftp://example.com/a.png', title: 'x' }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call('POST', '/api/campaigns', { token: t.user, body: { whatsappId: connection.id, minInterval: 0, maxInterval: 0, ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues.map((i: { path: string }) => i.path), JSON.stringify(body)).toContain(field);
    }
    expect(await campaignRows()).toBe(before);
  });

  it('sends a file by URL with its title, fetched from a loopback server when MEDIA_FETCH_PRIVATE allows it', async () => {
    const [to] = numbers(1);
    const created = await start({ kind: 'mediaUrl', numbers: to, url: `${filesUrl}/promo.png`, title: 'Nosso catálogo' });
    expect((await finished(created.id)).sent).toBe(1);
    const [entry] = (await outbox(t, connection.id)).filter((e) => e.to === to);
    expect(entry).toMatchObject({ mediaType: 'image', body: 'Nosso catálogo' });
  });

  it('sends an .ogg by URL as a voice note', async () => {
    const [to] = numbers(1);
    const created = await start({ kind: 'audio', numbers: to, url: `${filesUrl}/voice.ogg` });
    expect((await finished(created.id)).sent).toBe(1);
    const [entry] = (await outbox(t, connection.id)).filter((e) => e.to === to);
    // Not captioned with its file name (issue 33 item 6: the customer received "voice.ogg").
    expect(entry).toMatchObject({ mediaType: 'audio', body: '' });
  });

  it('refuses, before any send is created, a URL on a local address unless MEDIA_FETCH_PRIVATE=allow (issue 33 item 14)', async () => {
    const strict = await createTestApp({ mediaFetchAllowPrivate: false });
    try {
      const simulator = await connectedSimulator(strict, { name: 'Strict' });
      const token = (await strict.createUser()).token;
      const before = await queryRows<{ n: number }>(strict, sql`select count(*)::int as n from campaigns`);
      for (const [kind, url] of [['mediaUrl', `${filesUrl}/promo.png`], ['audio', 'http://10.0.0.7/voice.ogg'], ['mediaUrl', 'http://[::1]/promo.png']] as const) {
        const res = await strict.call('POST', '/api/campaigns', { token, body: { kind, whatsappId: simulator.id, numbers: nextNumber(), url, title: 'Promo', minInterval: 0, maxInterval: 0 } });
        expect(res.status, url).toBe(400);
        expect(res.body.issues, url).toMatchObject([{ path: 'url', code: 'mediaUrlPrivate' }]);
      }
      expect(await queryRows<{ n: number }>(strict, sql`select count(*)::int as n from campaigns`)).toEqual(before);
    } finally {
      await strict.close();
    }
  });

  it('pauses a campaign whose file cannot be fetched, with the reason, and sends nothing', async () => {
    const [to] = numbers(1);
    const created = await start({ kind: 'mediaUrl', numbers: to, url: `${filesUrl}/missing.png`, title: 'Nada' });
    const paused = await eventually(async () => {
      const c = await campaign(created.id);
      return c.status === 'paused' ? c : null;
    }, 10_000, 'paused');
    expect(paused.lastError).toContain('404');
    expect(paused.sent).toBe(0);
    expect(await sentTo([to!])).toEqual([]);
    const { recipients } = (await t.call<CampaignRecipientListResponse>('GET', `/api/campaigns/${created.id}/recipients`, { token: t.user })).body;
    expect(recipients[0]!.status).toBe('pending');
  });

  describe('files by path (/ZDGMedia2)', () => {
    let folder = '';
    let outside = '';

    beforeAll(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'wadesk-bulk-'));
      outside = await mkdtemp(path.join(os.tmpdir(), 'wadesk-outside-'));
      await mkdir(path.join(folder, 'promos'));
      await writeFile(path.join(folder, 'promos', 'tabela.pdf'), '%PDF-1.4 price list');
      await writeFile(path.join(outside, 'secret.txt'), 'not for customers');
      await symlink(path.join(outside, 'secret.txt'), path.join(folder, 'link-out.txt'));
      const res = await t.call('PUT', '/api/settings/bulkMediaFolder', { token: t.admin, body: { value: folder } });
      expect(res.status).toBe(200);
    });

    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    });

    it('tells where the files must be: the folder\'s name to attendants, its path to admins too', async () => {
      // Its files, relative to it, to pick from (issue 33 item 14): not the symlink leading out.
      const files = ['promos/tabela.pdf'];
      expect((await t.call('GET', '/api/campaigns/media-folder', { token: t.user })).body).toEqual({ label: path.basename(folder), files });
      expect((await t.call('GET', '/api/campaigns/media-folder', { token: t.admin })).body).toEqual({ label: path.basename(folder), folder, files });
    });

    it('sends a file inside the bulk media folder, named by its absolute path', async () => {
      const [to] = numbers(1);
      const created = await start({ kind: 'mediaPath', numbers: to, path: path.join(folder, 'promos', 'tabela.pdf'), title: 'Tabela de preços' });
      expect((await finished(created.id)).sent).toBe(1);
      const [entry] = (await outbox(t, connection.id)).filter((e) => e.to === to);
      expect(entry).toMatchObject({ mediaType: 'document', body: 'Tabela de preços' });
    });

    it('sends a file named by its path inside the folder', async () => {
      const [to] = numbers(1);
      const created = await start({ kind: 'mediaPath', numbers: to, path: 'promos/tabela.pdf', title: 'Tabela' });
      expect((await finished(created.id)).sent).toBe(1);
      expect((await campaign(created.id)).path).toBe('promos/tabela.pdf');
    });

    it('refuses a path outside the folder, a symlink leading out and a missing file with 400', async () => {
      const before = await campaignRows();
      const paths: [string, RegExp][] = [
        [path.join(outside, 'secret.txt'), /inside the bulk media folder/],
        [path.join(folder, '..', path.basename(outside), 'secret.txt'), /inside the bulk media folder/],
        [path.join(folder, 'link-out.txt'), /leads outside/],
        [path.join(folder, 'promos', 'nothing.pdf'), /No file/],
        [path.join(folder, 'promos'), /not a file/],
        ['../outside.txt', /inside the bulk media folder/],
        ['/etc/passwd', /inside the bulk media folder/],
      ];
      for (const [file, message] of paths) {
        const res = await t.call('POST', '/api/campaigns', {
          token: t.user,
          body: { whatsappId: connection.id, kind: 'mediaPath', numbers: '5511987650000', path: file, title: 'x', minInterval: 0, maxInterval: 0 },
        });
        expect(res.status, file).toBe(400);
        expect(res.body.issues[0]).toMatchObject({ path: 'path' });
        expect(res.body.message, file).toMatch(message);
      }
      expect(await campaignRows()).toBe(before);
    });
  });

  it("shows an attendant only their own campaigns (another's answers 404) and an admin every one", async () => {
    const created = await start({ kind: 'text', numbers: numbers(1).join('\n'), message: 'Só minha' });
    const other = await t.createUser();
    const res = await t.call('GET', `/api/campaigns/${created.id}`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_CAMPAIGN_FOUND');
    expect((await t.call('POST', `/api/campaigns/${created.id}/cancel`, { token: other.token })).status).toBe(404);
    expect((await t.call('GET', `/api/campaigns/${created.id}/recipients.csv`, { token: other.token })).status).toBe(404);
    const theirs = (await t.call<{ campaigns: CampaignDto[] }>('GET', '/api/campaigns', { token: other.token })).body;
    expect(theirs.campaigns).toEqual([]);
    const mine = (await t.call<{ campaigns: CampaignDto[]; hasMore: boolean }>('GET', '/api/campaigns', { token: t.user })).body;
    expect(mine.campaigns[0]!.id).toBe(created.id);
    expect(mine.campaigns.every((c, i, all) => i === 0 || all[i - 1]!.id > c.id)).toBe(true);
    expect((await campaign(created.id, t.admin)).id).toBe(created.id);
  });

  it('never sends again a recipient left "sending" by a crash: it becomes unknown', async () => {
    const list = numbers(3);
    const created = await start({ kind: 'text', numbers: list.join('\n'), message: 'Depois da queda', minInterval: 30, maxInterval: 30 });
    // As if the server died after marking line 1 sending (before the network answered).
    await queryRows(t, sql`update campaign_recipients set status = 'sending' where campaign_id = ${created.id} and line = 1`);
    const [row] = await queryRows<{ chain: string }>(t, sql`select chain from campaigns where id = ${created.id}`);
    await t.app.services.campaigns.step(created.id, row!.chain);
    const c = await campaign(created.id);
    expect(c).toMatchObject({ sent: 1, unknown: 1 });
    const { recipients } = (await t.call<CampaignRecipientListResponse>('GET', `/api/campaigns/${created.id}/recipients`, { token: t.user })).body;
    expect(recipients.map((r) => r.status)).toEqual(['unknown', 'sent', 'pending']);
    expect(await sentTo(list)).toEqual([list[1]]);
    // A step of an older chain (a pause drew a new one) sends nothing.
    await t.call('POST', `/api/campaigns/${created.id}/pause`, { token: t.user });
    await t.app.services.campaigns.step(created.id, row!.chain);
    expect((await campaign(created.id)).sent).toBe(1);
    expect((await t.call('POST', `/api/campaigns/${created.id}/cancel`, { token: t.user })).body.status).toBe('cancelled');
  });
});
