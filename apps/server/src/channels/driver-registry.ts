import type { Channel } from '@wadesk/contracts';
import { createLazyBaileysDriver } from './baileys/lazy-driver.js';
import type { ChannelDriverFactory } from './channel-driver.js';
import type { SimulatorNetwork } from './simulator/simulator-network.js';

/**
 * The driver of each channel. A channel missing here leaves its connections DISCONNECTED (with a log line).
 * `overrides` replace entries (tests inject failing drivers).
 */
export function createDriverRegistry(
  simulator: SimulatorNetwork | null,
  overrides?: ReadonlyMap<Channel, ChannelDriverFactory>,
  /** Drivers built with the app's database and config (the Cloud API's, issue 18). */
  more: Partial<Record<Channel, ChannelDriverFactory>> = {},
): Map<Channel, ChannelDriverFactory> {
  const drivers = new Map<Channel, ChannelDriverFactory>();
  if (simulator) drivers.set('simulator', simulator.driverFactory);
  drivers.set('baileys', createLazyBaileysDriver);
  for (const [channel, factory] of Object.entries(more) as [Channel, ChannelDriverFactory][]) drivers.set(channel, factory);
  for (const [channel, factory] of overrides ?? []) drivers.set(channel, factory);
  return drivers;
}
