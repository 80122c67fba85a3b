import type { WhatsappDto } from '@wadesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelPorts } from '../channel-ports.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import type { ConnectionLeases } from './connection-lease.repository.js';
import { SessionManager } from './session-manager.js';
import { SimulatorNetwork } from './simulator/simulator-network.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Leases of one process among `processes` live ones, where nobody else holds anything (issue 17). */
class SharedLeases implements ConnectionLeases {
  readonly mine = new Set<number>();
  constructor(
    private readonly processes: number,
    private readonly all: () => Promise<number[]>,
  ) {}
  async acquire(id: number): Promise<boolean> {
    this.mine.add(id);
    return true;
  }
  async held(ids: number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.mine.has(id)));
  }
  async release(ids: number[]): Promise<void> {
    for (const id of ids) this.mine.delete(id);
  }
  async unowned(): Promise<number[]> {
    return (await this.all()).filter((id) => !this.mine.has(id));
  }
  async census(): Promise<{ processes: number; connections: number }> {
    return { processes: this.processes, connections: (await this.all()).length };
  }
  onLost(): void {}
  async close(): Promise<void> {
    this.mine.clear();
  }
}

let t: TestApp;
let ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const token = await t.adminToken();
  for (let i = 1; i <= 5; i += 1) {
    const res = await t.call<WhatsappDto>('POST', '/api/whatsapp', { token, body: { name: `Share ${i}`, channel: 'simulator' } });
    expect(res.status).toBe(201);
  }
  ids = (await t.app.services.whatsapps.list()).map((w) => w.id);
});
afterAll(async () => {
  await t.close();
});

function manager(leases: ConnectionLeases, clock: () => number): SessionManager {
  return new SessionManager({
    db: t.app.database.db,
    connections: channelPorts(t.app.database.db).connections,
    events: t.app.services.events,
    drivers: new Map([['simulator', new SimulatorNetwork(t.app.database.db, channelPorts(t.app.database.db)).driverFactory]]),
    nodeId: 'share-test',
    log: silent,
    leases,
    clock,
    shareGraceMs: 10_000,
    leaseCheckMs: 3_600_000, // upkeep only when the test asks
  });
}

describe('connections spread between processes (issue 17)', () => {
  it('takes at most ceil(connections / live processes), and a free one past that only after the grace time', async () => {
    let now = 1_000_000;
    const leases = new SharedLeases(2, async () => ids);
    const sessions = manager(leases, () => now);
    try {
      await sessions.startAll();
      const share = Math.ceil(ids.length / 2);
      expect(leases.mine.size).toBe(share); // the others are for the other process
      await sessions.maintainLeasesNow();
      expect(leases.mine.size).toBe(share); // still free, but within the grace time: left to the others
      now += 10_001;
      await sessions.maintainLeasesNow();
      expect(leases.mine.size).toBe(ids.length); // nobody took them: taken here rather than left down
    } finally {
      await sessions.stopAll();
    }
  });

  it('takes every connection when it is the only live process', async () => {
    const leases = new SharedLeases(1, async () => ids);
    const sessions = manager(leases, () => 0);
    try {
      await sessions.startAll();
      expect(leases.mine.size).toBe(ids.length);
    } finally {
      await sessions.stopAll();
    }
  });
});
