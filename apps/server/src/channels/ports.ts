import type { Channel, SessionStatus, WhatsappSessionDto } from '@wadesk/contracts';
import type { CloudApiConfig } from '../db/schema.js';

/**
 * What the channel layer needs of the desk (decision 0034). Channels never import modules: the modules implement
 * these small interfaces and the composition root (app.ts, through channel-ports.ts) hands them in.
 */

/** What the session manager needs to run a connection. */
export interface SessionTarget {
  id: number;
  channel: Channel;
  status: SessionStatus;
}

/** The session fields a driver's state change writes. */
export interface SessionWrite {
  status?: SessionStatus;
  qrcode?: string;
  retries?: number;
  number?: string | null;
}

/** The desk's connections as the channel layer reads and writes them (the whatsapp module's repository). */
export interface ChannelConnections {
  findSessionTarget(id: number): Promise<SessionTarget | null>;
  listSessionTargets(): Promise<SessionTarget[]>;
  /** Writes the session fields; answers the session as the socket event carries it (null if deleted). */
  updateSession(id: number, write: SessionWrite): Promise<WhatsappSessionDto | null>;
  /** A connection's Cloud API credentials, in full; null when there is no such connection. */
  cloudConfig(id: number): Promise<{ channel: Channel; cloud: CloudApiConfig | null } | null>;
  /** The default connection, if any. */
  findDefaultId(): Promise<number | null>;
}

/** The desk's stored messages as the simulator asks about them (the messages module's repository). */
export interface ChannelMessages {
  /** Whether a message with this network id is stored on the connection. */
  isStored(whatsappId: number, channelMessageId: string): Promise<boolean>;
}

/** Where a webhook's delivery failure goes (the messages service). */
export interface ChannelSendErrors {
  /** Records that the network refused a message the desk sent (a Cloud API `failed` status). */
  applySendError(whatsappId: number, channelMessageId: string, error: string): Promise<void>;
}

/** The settings a channel's webhook reads (the settings module). */
export interface ChannelSettings {
  value(key: 'instagramVerifyToken' | 'instagramAppSecret'): Promise<string>;
}

/** What the channel layer is handed when it is built. */
export interface ChannelPorts {
  connections: ChannelConnections;
  messages: ChannelMessages;
}
