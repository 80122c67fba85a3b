import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatorDevice, type OutboxEntry } from './simulator-device.js';
import { SimulatorOutboxFiles } from './simulator-outbox-files.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wadesk-outbox-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const folder = (id: number) => path.join(dataDir, 'simulator', String(id));

async function sendFile(device: SimulatorDevice, n: number, bytes: number): Promise<OutboxEntry> {
  const mediaUrl = await device.keepFile('image/png', Buffer.alloc(bytes, n));
  const entry: OutboxEntry = { id: `OUT-${n}`, to: '5511987654321', body: '', mediaType: 'image', mediaUrl, ack: 1, isDeleted: false, createdAt: new Date() };
  device.send(entry);
  return entry;
}

describe('simulator outbox files', () => {
  it('keeps sent files on disk, not in memory, and at most N per device: older ones are deleted and unlisted', async () => {
    const files = new SimulatorOutboxFiles(dataDir, 'secret', { maxFiles: 3, maxBytes: 1024 * 1024 });
    const device = new SimulatorDevice(7, files);
    const sent: OutboxEntry[] = [];
    for (let n = 1; n <= 5; n += 1) sent.push(await sendFile(device, n, 1000));
    expect(readdirSync(folder(7))).toHaveLength(3);
    expect(files.count(7)).toBe(3);
    expect(sent.map((e) => e.mediaUrl === null)).toEqual([true, true, false, false, false]);
    for (const entry of sent.slice(2)) {
      expect(entry.mediaUrl).toMatch(/^\/api\/simulator\/7\/files\/[0-9a-f-]{36}\.png\?sig=/);
      expect(entry.mediaUrl!.length).toBeLessThan(200); // a URL, not the file's bytes
    }
    const newest = /files\/([^?]+)\?sig=(.+)$/.exec(sent[4]!.mediaUrl!)!;
    expect(files.verify(7, newest[1]!, newest[2]!)).toBe(true);
    expect(files.verify(8, newest[1]!, newest[2]!)).toBe(false);
    expect(files.verify(7, '../secrets.json', newest[2]!)).toBe(false);
    const opened = await files.open(7, newest[1]!);
    expect(opened).toMatchObject({ size: 1000, mimetype: 'image/png' });
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.alloc(1000, 5));
  });

  it('keeps at most M bytes per device, but always the newest file', async () => {
    const files = new SimulatorOutboxFiles(dataDir, 'secret', { maxFiles: 100, maxBytes: 2500 });
    const device = new SimulatorDevice(3, files);
    const sent = [await sendFile(device, 1, 1000), await sendFile(device, 2, 1000), await sendFile(device, 3, 1000)];
    expect(sent.map((e) => e.mediaUrl === null)).toEqual([true, false, false]);
    const big = await sendFile(device, 4, 5000);
    expect(big.mediaUrl).not.toBeNull();
    expect(readdirSync(folder(3))).toHaveLength(1);
  });

  it('starts each device from an empty folder (files of an earlier run belong to no outbox) and deletes it when forgotten', async () => {
    mkdirSync(folder(5), { recursive: true });
    writeFileSync(path.join(folder(5), 'stale.png'), 'old');
    const files = new SimulatorOutboxFiles(dataDir, 'secret');
    const device = new SimulatorDevice(5, files);
    await Promise.all([sendFile(device, 1, 10), sendFile(device, 2, 10)]);
    expect(readdirSync(folder(5)).sort()).not.toContain('stale.png');
    expect(readdirSync(folder(5))).toHaveLength(2);
    await files.forget(5);
    expect(existsSync(folder(5))).toBe(false);
  });
});
