import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../http/error-handler.js';
import { readMultipartFile, readMultipartMessage } from './multipart-upload.js';
import { UploadSpool } from './upload-spool.js';

/**
 * Every upload route reads its files through these helpers: a file over its limit is 413 ERR_PAYLOAD_TOO_LARGE
 * whatever the chunks it arrives in, including when the limit falls exactly on the end of a chunk (the parser
 * then ends the file there without throwing).
 */

const BOUNDARY = 'HelperBoundary';
const LIMIT = 64 * 1024;
let app: FastifyInstance;
let spoolDir: string;

beforeAll(async () => {
  spoolDir = await mkdtemp(path.join(os.tmpdir(), 'wadesk-multipart-'));
  app = Fastify();
  registerErrorHandler(app);
  await app.register(fastifyMultipart);
  app.post('/one-file', async (request) => {
    const file = await readMultipartFile(request, { field: 'file', maxBytes: LIMIT });
    return { size: file?.data.length ?? null };
  });
  app.post('/message', async (request) => {
    const spool = new UploadSpool(spoolDir, { fileBytes: LIMIT, files: 3, requestBytes: 3 * LIMIT });
    try {
      const { files } = await readMultipartMessage(request, spool);
      return { files: files.length };
    } finally {
      await spool.discard();
    }
  });
});

afterAll(async () => {
  await app.close();
  await rm(spoolDir, { recursive: true, force: true });
});

/** A multipart body with one file of `size` bytes, cut into network chunks at `cuts` (offsets in the file). */
function upload(field: string, size: number, cuts: number[]): Readable {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`);
  const file = Buffer.alloc(size, 0x61);
  async function* chunks() {
    let from = 0;
    for (const [index, cut] of [...cuts, size].entries()) {
      const piece = file.subarray(from, cut);
      yield index === 0 ? Buffer.concat([head, piece]) : piece;
      from = cut;
      await sleep(20);
    }
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  return Readable.from(chunks());
}

async function post(url: string, payload: Readable) {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe.each([
  ['a file read into memory (the contacts CSV import)', '/one-file', 'file'],
  ['a message\'s files spooled to disk (POST /api/messages/:ticketId)', '/message', 'medias'],
])('%s', (_name, url, field) => {
  it('refuses a file one byte over the limit whose first chunk ends exactly at the limit', async () => {
    const res = await post(url, upload(field, LIMIT + 1, [LIMIT]));
    expect(res).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE', issues: [{ path: field }] } });
  });

  it('refuses a file over the limit in any chunking', async () => {
    for (const cuts of [[], [1000], [LIMIT - 1], [LIMIT + 1], [10, LIMIT, LIMIT + 5]]) {
      const res = await post(url, upload(field, LIMIT + 10, cuts));
      expect(res, `cuts ${cuts.join(',')}`).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    }
  });

  it('accepts a file of exactly the limit, and leaves no temporary file', async () => {
    const res = await post(url, upload(field, LIMIT, [LIMIT - 1]));
    expect(res.status).toBe(200);
    expect(await readdir(spoolDir)).toEqual([]);
  });
});
