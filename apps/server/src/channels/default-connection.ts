import { AppError } from '../http/app-error.js';
import type { ChannelDriver } from './channel-driver.js';
import type { ChannelConnections } from './ports.js';
import type { SessionManager } from './session-manager.js';

/** The driver of the default connection when it is CONNECTED in this process; null otherwise. */
export async function defaultConnectionDriver(connections: Pick<ChannelConnections, 'findDefaultId'>, sessions: SessionManager): Promise<ChannelDriver | null> {
  const id = await connections.findDefaultId();
  if (id === null) return null;
  try {
    return sessions.driver(id);
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') return null;
    throw err;
  }
}
