import type { Database } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { ChannelDriverFactory } from '../channel-driver.js';
import type { ChannelPorts } from '../ports.js';
import { SimulatorDevice } from './simulator-device.js';
import type { LocalFetch } from './simulator-media.js';
import type { SimulatorOutboxFiles } from './simulator-outbox-files.js';
import { SimulatorDriver } from './simulator.driver.js';
import { SimulatorDevicesRepository } from './simulator-devices.repository.js';

export interface SimulatorNetworkOptions {
  /** Reads media given as a path of this app (signed media, web app files). */
  fetchLocal?: LocalFetch;
  /** Where devices keep the files they sent; in memory (data: URLs) without it. */
  files?: SimulatorOutboxFiles;
  /** How long the simulated network takes to answer a number check or take a text, in ms (fault tests). */
  latencyMs?: { min: number; max: number };
}

/** The built-in virtual WhatsApp network of this process: one simulated device per simulator connection. */
export class SimulatorNetwork {
  private readonly devices = new Map<number, SimulatorDevice>();
  readonly fetchLocal?: LocalFetch;
  readonly files?: SimulatorOutboxFiles;
  private readonly latencyMs?: { min: number; max: number };
  /** Where the phones keep their chats, sent messages and groups across restarts. */
  private readonly store: SimulatorDevicesRepository;

  constructor(
    db: Database,
    private readonly desk: ChannelPorts,
    options: SimulatorNetworkOptions = {},
  ) {
    this.fetchLocal = options.fetchLocal;
    this.files = options.files;
    this.latencyMs = options.latencyMs;
    this.store = new SimulatorDevicesRepository(db);
  }

  /** The driver factory to register for channel 'simulator'. */
  readonly driverFactory: ChannelDriverFactory = (context) => new SimulatorDriver(context, this.device(context.whatsappId), this.fetchLocal, this.latencyMs);

  device(whatsappId: number): SimulatorDevice {
    let device = this.devices.get(whatsappId);
    if (!device) {
      device = new SimulatorDevice(whatsappId, this.files ?? null, this.store);
      this.devices.set(whatsappId, device);
    }
    return device;
  }

  /**
   * This process's device of a connection when it is connected, without a database read: a device is connected only
   * while its connection's session runs here (stopping or deleting the connection unlinks it), and the desk's own
   * lookup ignores a message of a connection that is gone.
   */
  connectedDevice(whatsappId: number): SimulatorDevice | null {
    const device = this.devices.get(whatsappId);
    return device?.connected ? device : null;
  }

  /** The device of an existing simulator connection; ERR_NO_WAPP_FOUND otherwise. */
  async requireDevice(whatsappId: number): Promise<SimulatorDevice> {
    const target = await this.desk.connections.findSessionTarget(whatsappId);
    if (!target) throw new AppError('ERR_NO_WAPP_FOUND');
    if (target.channel !== 'simulator') throw new AppError('ERR_VALIDATION', 'This is not a simulator connection.');
    const device = this.device(whatsappId);
    await device.load();
    return device;
  }

  /** Whether the desk has stored a message with this network id on the connection (the database says what was seen). */
  async isStored(whatsappId: number, messageId: string): Promise<boolean> {
    return this.desk.messages.isStored(whatsappId, messageId);
  }

  forget(whatsappId: number): void {
    this.devices.delete(whatsappId);
    void this.files?.forget(whatsappId).catch(() => undefined);
  }
}
