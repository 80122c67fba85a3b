import { z } from 'zod';
import { boundedString, idField, textField } from '../validation.js';
import type { QueueDto } from './queues.js';

export const CHANNELS = ['baileys', 'simulator'] as const;
export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;

/** Connection states (§4). */
export const SESSION_STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'TIMEOUT', 'DISCONNECTED'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** States that make the drawer show its '!' badge. */
export const ATTENTION_STATUSES: readonly SessionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

export const WhatsappInput = z.object({
  name: boundedString(2, 50),
  greetingMessage: textField(30000).default(''),
  farewellMessage: textField(30000).default(''),
  isDefault: z.boolean().default(false),
  queueIds: z.array(idField).max(500).default([]),
  channel: Channel.default('baileys'),
});
export type WhatsappInput = z.input<typeof WhatsappInput>;

/** Only the fields sent change: no defaults here (zod's partial() would still apply them). */
export const WhatsappUpdateInput = z.object({
  name: boundedString(2, 50).optional(),
  greetingMessage: textField(30000).optional(),
  farewellMessage: textField(30000).optional(),
  isDefault: z.boolean().optional(),
  queueIds: z.array(idField).max(500).optional(),
  channel: Channel.optional(),
});
export type WhatsappUpdateInput = z.input<typeof WhatsappUpdateInput>;

/**
 * Why a connection last failed: `logged_out` (the phone removed this device), `qr_timeout` (nobody scanned
 * the QR code in time), `connection_lost` (the network dropped the connection; reconnects with backoff),
 * `start_failed` (the driver could not start), `no_driver` (the server runs no driver for the channel).
 */
export const CONNECTION_ERROR_CODES = ['logged_out', 'qr_timeout', 'connection_lost', 'start_failed', 'no_driver'] as const;
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

export interface ConnectionErrorDto {
  code: ConnectionErrorCode;
  /** The network's own reason, when it gave one (e.g. `connectionClosed`, `status 503`). */
  detail?: string;
  /** When it failed (ISO). */
  at: string;
}

export interface WhatsappSessionDto {
  id: number;
  status: SessionStatus;
  qrcode: string;
  retries: number;
  updatedAt: string;
  /**
   * The last failure since the connection was last CONNECTED (null once it connects, or when the process
   * running it knows none). Kept in that process's memory: absent after a restart.
   */
  lastError?: ConnectionErrorDto | null;
}

export interface WhatsappDto extends WhatsappSessionDto {
  name: string;
  channel: Channel;
  isDefault: boolean;
  greetingMessage: string;
  farewellMessage: string;
  queues: QueueDto[];
  createdAt: string;
}
