import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTACT_CSV_IMPORT_MAX_BYTES } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { storedChecksum } from '../../test/bad-input-fixtures.js';
import { useTestApp } from '../../test/test-app.js';

/** A contacts CSV over the 5 MB limit is refused whole, however it arrives: never imported cut at the limit. */

const t = useTestApp({ admin: true });
const BOUNDARY = 'CsvOversizeBoundary';

/** A valid contacts CSV of at least `bytes` bytes, about 600 bytes a line (so under the 10,000-line limit). */
function bigCsv(bytes: number, firstNumber: number): Buffer {
  const lines = ['name,number,notes'];
  let size = lines[0]!.length + 1;
  for (let i = 0; size < bytes; i += 1) {
    const line = `Person ${i},55219${String(firstNumber + i).padStart(8, '0')},${'n'.repeat(560)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * The CSV as a multipart upload in two network chunks, the first ending exactly at the limit. The parser then
 * hands over the first 5 MB as if they were the whole file, and only flags the file as truncated afterwards.
 */
function cutAtTheLimit(csv: Buffer): Readable {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`);
  async function* chunks() {
    yield Buffer.concat([head, csv.subarray(0, CONTACT_CSV_IMPORT_MAX_BYTES)]);
    await sleep(50);
    yield Buffer.concat([csv.subarray(CONTACT_CSV_IMPORT_MAX_BYTES), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
  }
  return Readable.from(chunks());
}

/** The same upload in one piece. */
function whole(csv: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    csv,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function importCsv(payload: Readable | Buffer, { dryRun, contentType }: { dryRun: boolean; contentType?: string }) {
  const res = await t.app.http.inject({
    method: 'POST',
    url: `/api/contacts/import/csv${dryRun ? '?dryRun=1' : ''}`,
    headers: { authorization: `Bearer ${t.admin}`, 'content-type': contentType ?? `multipart/form-data; boundary=${BOUNDARY}` },
    payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as { error?: string; created?: number } };
}

describe('POST /api/contacts/import/csv over 5 MB', () => {
  it('refuses with 413 ERR_PAYLOAD_TOO_LARGE a file whose first 5 MB arrive as one chunk, dry run or not, storing nothing', async () => {
    const csv = bigCsv(6.2 * 1024 * 1024, 0);
    const before = await storedChecksum(t);
    for (const dryRun of [true, false, true, false]) {
      const res = await importCsv(cutAtTheLimit(csv), { dryRun });
      expect(res, `dryRun ${dryRun}`).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    }
    expect(await storedChecksum(t)).toEqual(before);
  }, 60_000);

  it('refuses with 413 ERR_PAYLOAD_TOO_LARGE a 5.9 MB file sent in one piece, and the same file as a text/csv body', async () => {
    const csv = bigCsv(5.9 * 1024 * 1024, 20_000);
    const before = await storedChecksum(t);
    expect(await importCsv(whole(csv), { dryRun: false })).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    expect(await importCsv(csv, { dryRun: false, contentType: 'text/csv' })).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    expect(await storedChecksum(t)).toEqual(before);
  }, 60_000);

  it('still imports a file of just under 5 MB', async () => {
    const csv = bigCsv(CONTACT_CSV_IMPORT_MAX_BYTES - 4096, 40_000);
    expect(csv.length).toBeLessThanOrEqual(CONTACT_CSV_IMPORT_MAX_BYTES);
    const res = await importCsv(whole(csv), { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(csv.toString().trim().split('\n').length - 1);
  }, 60_000);
});
