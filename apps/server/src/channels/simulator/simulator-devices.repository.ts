import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { simulatorDevices } from '../../db/schema.js';
import type { GroupInfo, InboundMessage } from '../channel-driver.js';
import type { OutboxEntry } from './simulator-device.js';

/** A message of the phone's history as stored: without its media's download (the file is not kept). */
export type StoredHistoryMessage = Omit<InboundMessage, 'media' | 'timestamp'> & { timestamp: string };
export type StoredOutboxEntry = Omit<OutboxEntry, 'createdAt'> & { createdAt: string };

/** What a simulated phone keeps across a restart (issue 33 item 25). */
export interface SimulatorDeviceState {
  history: StoredHistoryMessage[];
  outbox: StoredOutboxEntry[];
  groups: GroupInfo[];
  groupCounter: number;
}

/** The simulated phones' state in the database (table simulator_devices), one JSON document per connection: the only file that queries it. */
export class SimulatorDevicesRepository {
  constructor(private readonly db: Database) {}

  async load(whatsappId: number): Promise<SimulatorDeviceState | null> {
    const [row] = await this.db.select({ state: simulatorDevices.state }).from(simulatorDevices).where(eq(simulatorDevices.whatsappId, whatsappId)).limit(1);
    return (row?.state as SimulatorDeviceState | undefined) ?? null;
  }

  /** Writes the state; a connection deleted meanwhile has nothing to keep. */
  async save(whatsappId: number, state: SimulatorDeviceState): Promise<void> {
    try {
      await this.db
        .insert(simulatorDevices)
        .values({ whatsappId, state, updatedAt: new Date() })
        .onConflictDoUpdate({ target: simulatorDevices.whatsappId, set: { state, updatedAt: new Date() } });
    } catch (err) {
      if (!isForeignKeyViolation(err)) throw err;
    }
  }
}
