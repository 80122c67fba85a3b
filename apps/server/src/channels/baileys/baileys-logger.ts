import type { SocketConfig } from '@whiskeysockets/baileys';
import type { DriverContext } from '../channel-driver.js';

/** Baileys' logger contract (pino's shape). */
export type ILogger = SocketConfig['logger'];

function asObject(value: unknown, bindings: Record<string, unknown>): object {
  if (value instanceof Error) return { ...bindings, err: value };
  if (typeof value === 'object' && value !== null) return { ...bindings, ...value };
  return { ...bindings, detail: value };
}

/**
 * A pino-shaped logger for Baileys that forwards only warnings and errors to the connection's log.
 * Baileys logs every frame at trace/debug and much at info; that stays silent.
 */
export function createBaileysLogger(log: DriverContext['log'], bindings: Record<string, unknown> = {}): ILogger {
  const forward = (level: 'warn' | 'error') => (obj: unknown, msg?: string) => {
    if (typeof obj === 'string' && msg === undefined) log[level](bindings, obj);
    else log[level](asObject(obj, bindings), msg);
  };
  const silent = () => undefined;
  return {
    level: 'warn',
    child: (obj) => createBaileysLogger(log, { ...bindings, ...obj }),
    trace: silent,
    debug: silent,
    info: silent,
    warn: forward('warn'),
    error: forward('error'),
  };
}
