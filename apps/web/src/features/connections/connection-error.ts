import type { ConnectionErrorDto, SessionStatus } from '@wadesk/contracts';
import type { TFunction } from 'i18next';

/**
 * Why a connection failed, in the viewer's language (the network's own reason in parentheses), or null when
 * there is nothing to say: no failure known, or the connection is CONNECTED again.
 */
export function connectionErrorText(
  lastError: ConnectionErrorDto | null | undefined,
  status: SessionStatus,
  t: TFunction,
): string | null {
  if (!lastError || status === 'CONNECTED') return null;
  const reason = t(`connections.lastError.${lastError.code}`);
  return lastError.detail ? t('connections.lastError.withDetail', { reason, detail: lastError.detail }) : reason;
}
