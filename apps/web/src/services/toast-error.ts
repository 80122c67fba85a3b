import { AxiosError } from 'axios';
import { isErrorCode, type ErrorBody } from '@wadesk/contracts';
import type * as ToastifyModule from 'react-toastify';
import i18n from '../i18n';
import { connection } from './connection-state';

/** Codes whose server message carries an outside service's reason, worth showing as is. */
const PROVIDER_ERRORS: ReadonlySet<string> = new Set(['ERR_EMAIL_SEND_FAILED', 'ERR_EMAIL_NOT_CONFIGURED', 'ERR_PROVIDER_NOT_CONFIGURED', 'ERR_OUTREACH_RECIPIENTS', 'ERR_CLOUD_API_ERROR']);

/** What to show for a failed call (§8): translated code, else the server's text, else a generic message. */
export function errorMessage(err: unknown): { text: string; code?: string } {
  if (err instanceof AxiosError) {
    const body = err.response?.data as Partial<ErrorBody> | undefined;
    const code = body?.error;
    if (isErrorCode(code) && i18n.exists(`errors.${code}`)) {
      if (code === 'ERR_VALIDATION' && body?.issues?.length) {
        const details = body.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
        return { text: `${i18n.t(`errors.${code}`)} ${details}`, code };
      }
      // A provider's refusal (SMTP, Graph, Vonage): its reason is the useful part, shown after the translated code.
      if (PROVIDER_ERRORS.has(code) && body?.message) return { text: `${i18n.t(`errors.${code}`)} ${body.message}`, code };
      return { text: i18n.t(`errors.${code}`), code };
    }
    if (typeof code === 'string' && code) return { text: body?.message || code, code };
    if (body?.message) return { text: body.message };
    // No answer at all (network down, timeout): never axios's English "Network Error".
    if (!err.response) return { text: i18n.t('errors.network') };
  } else if (err instanceof Error && /^(Network Error|Failed to fetch|NetworkError\b|Load failed$)/.test(err.message)) {
    // The browser's own words for a failed fetch (they differ per browser): the same translated text.
    return { text: i18n.t('errors.network') };
  } else if (err instanceof Error && err.message) {
    return { text: err.message };
  }
  return { text: i18n.t('errors.generic') };
}

type Toastify = typeof ToastifyModule;

let toastify: Promise<Toastify> | undefined;
const requested = new Set<() => void>();

/**
 * react-toastify, loaded on first need rather than with the first screen (issue 11: the login page is usable
 * before it arrives). Toasts shown before its container is mounted wait in its queue (see app.tsx's Toasts).
 */
export function loadToastify(): Promise<Toastify> {
  if (!toastify) {
    const loading = import('react-toastify');
    toastify = loading;
    // A failed load (network down) may be tried again by the next toast.
    loading.catch(() => {
      if (toastify === loading) toastify = undefined;
    });
    for (const listener of [...requested]) listener();
  }
  return toastify;
}

/** Calls `listener` when a toast first asks for react-toastify (the container then mounts at once). */
export function onToastifyRequested(listener: () => void): () => void {
  if (toastify) listener();
  requested.add(listener);
  return () => {
    requested.delete(listener);
  };
}

function show(kind: 'error' | 'success', text: string, options: { toastId?: string; autoClose: number }): void {
  loadToastify().then(
    ({ toast }) => toast[kind](text, options),
    () => undefined,
  );
}

/**
 * Shows a failed call as a toast, except when the server or its database cannot be reached: the
 * reconnecting bar says so instead (see connection-state.ts), and one toast per failed call would flood.
 */
export function toastError(err: unknown): void {
  if (connection.reportRequestFailure(err)) return;
  const { text, code } = errorMessage(err);
  show('error', text, { toastId: code ?? text, autoClose: 3000 });
}

export function toastSuccess(text: string): void {
  show('success', text, { autoClose: 3000 });
}
