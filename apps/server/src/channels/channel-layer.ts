import type { Channel } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import type { DomainEvents } from '../events/domain-events.js';
import type { ChannelDriverFactory } from './channel-driver.js';
import { cloudApiDriverFactory } from './cloud-api/cloud-api-driver.js';
import { createDriverRegistry } from './driver-registry.js';
import type { ChannelPorts } from './ports.js';
import { SessionManager, type SessionManagerOptions } from './session-manager.js';
import { assertLocalMediaPath } from './simulator/simulator-media.js';
import { SimulatorNetwork } from './simulator/simulator-network.js';
import { SimulatorOutboxFiles } from './simulator/simulator-outbox-files.js';
import { simulatorRoutes } from './simulator/simulator.routes.js';

export interface ChannelLayerOptions {
  /** Replace channel drivers (tests). */
  drivers?: ReadonlyMap<Channel, ChannelDriverFactory>;
  timers?: SessionManagerOptions['timers'];
  random?: () => number;
}

export interface ChannelLayerExtras {
  /** The driver of `instagram` connections (webhook in, Graph API out; decision 0018). */
  instagram?: ChannelDriverFactory;
  /** Wraps each channel's driver factory (the metrics time and count the sends). */
  instrument?: (channel: Channel, factory: ChannelDriverFactory) => ChannelDriverFactory;
}

export interface ChannelLayer {
  sessions: SessionManager;
  /** The virtual WhatsApp network, when SIMULATOR is on. */
  simulator: SimulatorNetwork | null;
  /** Starts every connection; waits at most `maxWaitMs` so a slow network does not hold the HTTP listener. */
  startAll(maxWaitMs?: number): Promise<void>;
}

/** Builds the session manager with its drivers, and registers the simulator's routes when it is on. */
export function createChannelLayer(
  http: FastifyInstance,
  db: Database,
  events: DomainEvents,
  config: AppConfig,
  desk: ChannelPorts,
  options: ChannelLayerOptions = {},
  extras: ChannelLayerExtras = {},
): ChannelLayer {
  const simulator = config.simulator
    ? new SimulatorNetwork(db, desk, {
        fetchLocal: async (path) => {
          assertLocalMediaPath(path); // signed media and web app files only, never the rest of the API
          const res = await http.inject({ method: 'GET', url: path });
          const type = res.headers['content-type'];
          return { status: res.statusCode, contentType: typeof type === 'string' ? type : undefined, body: res.rawPayload };
        },
        files: new SimulatorOutboxFiles(config.dataDir, config.refreshSecret),
        latencyMs: config.simulatorLatencyMs,
      })
    : null;
  const log = http.log.child({ module: 'sessions' });
  const drivers = createDriverRegistry(simulator, options.drivers, {
    ...(extras.instagram ? { instagram: extras.instagram } : {}),
    'cloud-api': cloudApiDriverFactory({
      graphUrl: config.whatsappGraphUrl,
      loadConfig: async (id) => (await desk.connections.cloudConfig(id))?.cloud ?? null,
    }),
  });
  if (extras.instrument) for (const [channel, factory] of drivers) drivers.set(channel, extras.instrument(channel, factory));
  const sessions = new SessionManager({
    db,
    connections: desk.connections,
    events,
    drivers,
    nodeId: config.nodeId,
    log,
    timers: options.timers,
    random: options.random,
  });
  if (simulator) {
    simulatorRoutes(http, simulator, sessions);
    events.on('whatsapp.deleted', ({ whatsappId }) => simulator.forget(whatsappId));
  }
  return {
    sessions,
    simulator,
    async startAll(maxWaitMs = 5000) {
      const started = sessions.startAll().catch((err: unknown) => log.error({ err }, 'starting connections failed'));
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxWaitMs);
        timer.unref();
      });
      await Promise.race([started, waited]);
      clearTimeout(timer);
    },
  };
}
