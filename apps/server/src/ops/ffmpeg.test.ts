import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toVoiceNote } from '../channels/baileys/baileys-audio.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { ffmpegVersion, processFfmpeg, resolveFfmpeg, SYSTEM_FFMPEG_PATHS } from './ffmpeg.js';

/** Issue 31 item 11: the audio transcoder runs a maintained ffmpeg, and says which. */

const SYSTEM = '/usr/bin/ffmpeg';
const BUNDLED = '/app/node_modules/@ffmpeg-installer/linux-x64/ffmpeg';
const present = (...paths: string[]) => (p: string) => paths.includes(p);

describe('resolveFfmpeg: FFMPEG_PATH, else the system ffmpeg, else the bundled one', () => {
  it('takes FFMPEG_PATH first, even when the system has one', () => {
    expect(resolveFfmpeg({ envPath: '/opt/ffmpeg/bin/ffmpeg', isExecutable: present(SYSTEM), bundledPath: () => BUNDLED })).toEqual({
      path: '/opt/ffmpeg/bin/ffmpeg',
      source: 'env',
    });
  });

  it("takes the system's (Debian's package) when FFMPEG_PATH is unset or blank, before the bundled one", () => {
    for (const envPath of [undefined, '', '  ']) {
      expect(resolveFfmpeg({ envPath, isExecutable: present(SYSTEM), bundledPath: () => BUNDLED })).toEqual({ path: SYSTEM, source: 'system' });
    }
  });

  it('falls back to the bundled one only when the system has none', () => {
    expect(resolveFfmpeg({ isExecutable: present(), bundledPath: () => BUNDLED })).toEqual({ path: BUNDLED, source: 'bundled' });
  });

  it('says there is none when nothing is found', () => {
    expect(resolveFfmpeg({ isExecutable: present(), bundledPath: () => undefined })).toBeNull();
  });

  it('looks for /usr/bin/ffmpeg on this machine, and finds the bundled one without it', () => {
    expect(SYSTEM_FFMPEG_PATHS).toContain(SYSTEM);
    const found = resolveFfmpeg();
    if (existsSync(SYSTEM)) expect(found).toEqual({ path: SYSTEM, source: 'system' });
    else expect(found?.source).toBe('bundled');
  });
});

describe('the chosen ffmpeg', () => {
  let dir: string;
  let fake: string;
  let app: TestApp;
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-test-'));
    fake = path.join(dir, 'ffmpeg');
    // Answers -version like ffmpeg; "converts" anything into a recognisable output.
    await writeFile(
      fake,
      '#!/bin/sh\nif [ "$1" = "-version" ]; then echo "ffmpeg version 9.9-fake Copyright (c) the test"; echo "built with sh"; exit 0; fi\ncat > /dev/null\nprintf converted-by-fake\n',
    );
    await chmod(fake, 0o755);
    app = await createTestApp({ ffmpegPath: fake, logLevel: 'info' }, { logStream });
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the first line of `ffmpeg -version`, or null when it does not run', async () => {
    expect(await ffmpegVersion(fake)).toBe('ffmpeg version 9.9-fake Copyright (c) the test');
    expect(await ffmpegVersion(path.join(dir, 'missing'))).toBeNull();
  });

  it('is the one the transcoder runs', async () => {
    expect(await processFfmpeg()).toMatchObject({ path: fake, source: 'env' });
    expect((await toVoiceNote(Buffer.from('any audio'))).toString()).toBe('converted-by-fake');
  });

  it("is named in GET /api/ready's details for an admin: path, version line, source", async () => {
    const res = await app.call('GET', '/api/ready', { token: await app.adminToken() });
    expect(res.status).toBe(200);
    expect(res.body.checks).toEqual({ database: 'ok', migrations: 'ok', jobs: 'ok', shutdown: 'ok' });
    expect(res.body.details).toEqual({
      ffmpeg: { path: fake, version: 'ffmpeg version 9.9-fake Copyright (c) the test', source: 'env' },
    });
  });

  it('is not named to anyone else: anonymous, an attendant, a bad token', async () => {
    const { token } = await app.createUser({ profile: 'user' });
    for (const caller of [undefined, token, 'not-a-token']) {
      const res = await app.call('GET', '/api/ready', { token: caller });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', jobs: 'ok', shutdown: 'ok' } });
    }
  });

  it('is named in the start log', async () => {
    await processFfmpeg();
    const logged = lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg?: string; ffmpeg?: { path?: string; source?: string; version?: string } });
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: `audio: ffmpeg version 9.9-fake Copyright (c) the test at ${fake} (env)`,
        ffmpeg: { path: fake, source: 'env', version: 'ffmpeg version 9.9-fake Copyright (c) the test' },
      }),
    );
  });
});
