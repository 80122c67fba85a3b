import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CampaignDto, WhatsappDto } from '@wadesk/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedSimulator, outbox, phoneNumbers, queryRows } from '../../test/desk-factories.js';
import { eventually } from '../../test/session-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The bulk media folder of /ZDGMedia2 never reaches the server's own files (issue 31 item 4): an admin cannot set
 * it to `/`, a system folder, DATA_DIR or a folder holding the database, the secrets, the media store or the
 * uploads spool; a file is refused when its real path lands there; attendants read the folder's name only.
 */

const t = useTestApp({ admin: true, user: true, tempDataDir: true });
const nextNumber = phoneNumbers(47_000, 1);
let connection: WhatsappDto;
let dataDir = '';
let outside = '';

beforeAll(async () => {
  connection = await connectedSimulator(t, { name: 'Bulk media folder' });
  dataDir = t.app.config.dataDir;
  // As the server writes it when JWT_SECRET is not set.
  await writeFile(path.join(dataDir, 'secrets.json'), '{"jwtSecret":"not-for-customers"}');
  await mkdir(path.join(dataDir, 'media', 'inbound'), { recursive: true });
  await mkdir(path.join(dataDir, 'tmp', 'uploads'), { recursive: true });
  outside = await mkdtemp(path.join(os.tmpdir(), 'wadesk-bulk-outside-'));
  await mkdir(path.join(outside, 'campaigns'));
  await writeFile(path.join(outside, 'campaigns', 'flyer.pdf'), '%PDF-1.4 flyer');
  await symlink(dataDir, path.join(outside, 'to-data'));
  await symlink('/', path.join(outside, 'to-root'));
  await symlink(path.join(dataDir, 'media'), path.join(outside, 'to-media'));
});

afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});

const setFolder = (value: string) => t.call('PUT', '/api/settings/bulkMediaFolder', { token: t.admin, body: { value } });

async function storedFolder(): Promise<string> {
  const [row] = await queryRows<{ value: string }>(t, sql`select value from settings where key = 'bulkMediaFolder'`);
  return row!.value;
}

function startByPath(file: string, token = t.user) {
  return t.call('POST', '/api/campaigns', {
    token,
    body: { whatsappId: connection.id, kind: 'mediaPath', numbers: nextNumber(), path: file, title: 'x', minInterval: 0, maxInterval: 0 },
  });
}

async function campaignCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t, sql`select count(*)::int as n from campaigns`);
  return Number(row!.n);
}

describe('PUT /api/settings/bulkMediaFolder', () => {
  it('refuses / and system folders with 400 ERR_PROTECTED_PATH, leaving the setting as it was', async () => {
    const before = await storedFolder();
    for (const folder of ['/', '/etc', '/etc/ssl', '/proc', '/sys', '/dev', '/boot', '/root', '/bin', '/usr', '/usr/lib', '/lib', '/var/lib', '/var/lib/postgresql', '/tmp', '/var']) {
      const res = await setFolder(folder);
      expect(res.status, folder).toBe(400);
      expect(res.body, folder).toMatchObject({ error: 'ERR_PROTECTED_PATH', issues: [{ path: 'value' }] });
    }
    expect(await storedFolder()).toBe(before);
  });

  it('refuses DATA_DIR, a folder above it, and the folders of the database, media and uploads, also through symlinks', async () => {
    const refused = [
      dataDir,
      `${dataDir}/`,
      path.dirname(dataDir),
      path.join(dataDir, '..', path.basename(dataDir)),
      path.join(dataDir, 'media'),
      path.join(dataDir, 'media', 'inbound'),
      path.join(dataDir, 'pgdata'),
      path.join(dataDir, 'tmp'),
      path.join(dataDir, 'tmp', 'uploads'),
      path.join(outside, 'to-data'),
      path.join(outside, 'to-root'),
      path.join(outside, 'to-media', 'inbound'),
      path.join(outside, 'to-data', 'media', 'not-yet-there'),
    ];
    for (const folder of refused) {
      const res = await setFolder(folder);
      expect(res.status, folder).toBe(400);
      expect(res.body.error, folder).toBe('ERR_PROTECTED_PATH');
    }
  });

  it('accepts a folder of its own, inside DATA_DIR or outside it, and the default', async () => {
    for (const folder of [path.join(dataDir, 'bulk-media'), path.join(dataDir, 'campaign-files'), path.join(outside, 'campaigns'), '']) {
      const res = await setFolder(folder);
      expect(res.status, folder).toBe(200);
      expect(await storedFolder()).toBe(folder);
    }
  });
});

describe('files sent by path', () => {
  it('never sends the server\'s secrets, even when the folder was stored as DATA_DIR before this check', async () => {
    // A setting written before the check existed (or straight into the database).
    await queryRows(t, sql`update settings set value = ${dataDir} where key = 'bulkMediaFolder'`);
    const before = await campaignCount();
    for (const file of [path.join(dataDir, 'secrets.json'), 'secrets.json']) {
      const res = await startByPath(file);
      expect(res.status, file).toBe(400);
      expect(res.body, file).toMatchObject({ error: 'ERR_PROTECTED_PATH', issues: [{ path: 'path' }] });
    }
    expect(await campaignCount()).toBe(before);
    expect(await setFolder('')).toMatchObject({ status: 200 });
  });

  it('pauses a campaign whose folder became unsafe before its send, sending nothing', async () => {
    expect((await setFolder(path.join(outside, 'campaigns'))).status).toBe(200);
    const to = nextNumber();
    const created = await t.call<{ id: number }>('POST', '/api/campaigns', {
      token: t.user,
      body: { whatsappId: connection.id, kind: 'mediaPath', numbers: to, path: 'flyer.pdf', title: 'Flyer', minInterval: 5, maxInterval: 5 },
    });
    expect(created.status).toBe(201);
    await queryRows(t, sql`update settings set value = ${dataDir} where key = 'bulkMediaFolder'`);
    const paused = await eventually(async () => {
      const c = (await t.call<CampaignDto>('GET', `/api/campaigns/${created.body.id}`, { token: t.user })).body;
      return c.status === 'paused' ? c : null;
    }, 20_000, 'paused');
    expect(paused.sent).toBe(0);
    expect(paused.lastError).toMatch(/cannot be used/);
    expect(paused.lastError).not.toContain(dataDir);
    expect((await outbox(t, connection.id)).filter((e) => e.to === to)).toEqual([]);
    expect(await setFolder('')).toMatchObject({ status: 200 });
  }, 30_000);

  it('refuses a file whose real path leads into the media store through a symlink in an allowed folder', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'wadesk-bulk-links-'));
    try {
      await writeFile(path.join(dataDir, 'media', 'inbound', 'customer.jpg'), 'a customer\'s photo');
      await symlink(path.join(dataDir, 'media', 'inbound', 'customer.jpg'), path.join(folder, 'photo.jpg'));
      await symlink(path.join(dataDir, 'media'), path.join(folder, 'media'));
      expect((await setFolder(folder)).status).toBe(200);
      for (const file of ['photo.jpg', 'media/inbound/customer.jpg', path.join(folder, 'media', 'inbound', 'customer.jpg')]) {
        const res = await startByPath(file);
        expect(res.status, file).toBe(400);
        expect(res.body.message, file).toMatch(/leads outside|server's own/);
      }
    } finally {
      await setFolder('');
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('what attendants read of the folder', () => {
  it('is its name, never the server\'s absolute path: GET /api/campaigns/media-folder, GET /api/settings and the refusals', async () => {
    const folder = path.join(outside, 'campaigns');
    expect((await setFolder(folder)).status).toBe(200);
    const answers = [
      await t.call('GET', '/api/campaigns/media-folder', { token: t.user }),
      await t.call('GET', '/api/settings', { token: t.user }),
      await startByPath('missing.pdf'),
      await startByPath('../elsewhere.pdf'),
    ];
    expect(answers[0]!.body).toMatchObject({ label: 'campaigns', files: expect.arrayContaining(['flyer.pdf']) });
    expect(answers[2]!.body.message).toMatch(/No file at missing\.pdf/);
    expect(answers[3]!.body.message).toMatch(/inside the bulk media folder \(campaigns\)/);
    // What the web translates (issue 33 item 13): a code and its details, on the field.
    expect(answers[2]!.body.issues).toEqual([{ path: 'path', message: 'No file at missing.pdf', code: 'noSuchFile', params: { file: 'missing.pdf', folder: 'campaigns' } }]);
    expect(answers[3]!.body.issues).toMatchObject([{ path: 'path', code: 'outsideMediaFolder', params: { folder: 'campaigns' } }]);
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(outside);
    // Admins read the path too.
    expect((await t.call('GET', '/api/campaigns/media-folder', { token: t.admin })).body).toEqual({ label: 'campaigns', folder, files: ['flyer.pdf'] });
    await setFolder('');
  });
});
