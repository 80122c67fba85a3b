import { AxiosError } from 'axios';
import { isErrorCode, type ErrorBody, type ValidationIssue } from '@wadesk/contracts';
import { createElement, type ReactNode } from 'react';
import type * as ToastifyModule from 'react-toastify';
import i18n from '../i18n';
import { translateValidation } from '../i18n/validation-message';
import { connection } from './connection-state';

/** Codes whose server message carries an outside service's reason, worth showing as is. */
const PROVIDER_ERRORS: ReadonlySet<string> = new Set(['ERR_OUTREACH_RECIPIENTS', 'ERR_CLOUD_API_ERROR']);

/** Issue codes whose fix is on the Settings page: the message then links there. */
const FIXED_IN_SETTINGS: ReadonlySet<string> = new Set(['settingMissing', 'mediaFolderUnusable', 'mediaFolderMissing', 'emailAuth', 'emailConnection', 'emailOther']);

/** A failed call as the user reads it. */
export interface ShownError {
  text: string;
  code?: string;
  /** The fix is in Settings: show a link there. */
  settings?: boolean;
  /** Each issue's text by the field (path) it is about, for forms to show under the field. */
  fields?: Record<string, string>;
}

/** One issue in the user's language: its code's sentence, else the known message translated, never a field key. */
function issueText(issue: ValidationIssue): string {
  if (issue.code && i18n.exists(`validation.issues.${issue.code}`)) return i18n.t(`validation.issues.${issue.code}`, issue.params ?? {});
  return translateValidation(i18n.t, issue.message) ?? '';
}

/**
 * The issues of an answer as one text: missing settings named as Settings labels them, every other issue after the
 * label its form gives the field (`labels`, by path) or alone.
 */
function issuesText(issues: ValidationIssue[], labels: Record<string, string>): string {
  const missing = issues.filter((i) => i.code === 'settingMissing').map((i) => i18n.t(`settings.keys.${i.path}`, { defaultValue: i.path }));
  const parts = issues
    .filter((i) => i.code !== 'settingMissing')
    .map((i) => (labels[i.path] ? `${labels[i.path]}: ${issueText(i)}` : issueText(i)));
  if (missing.length > 0) parts.push(i18n.t('validation.issues.settingsMissing', { names: missing.map((m) => `“${m}”`).join(', ') }));
  return parts.join(' ');
}

/**
 * What to show for a failed call (§8): the code's sentence in the user's language, then what is wrong with each
 * field (as `labels` names it) and whether Settings is where to fix it; else the server's text, else a generic message.
 */
export function errorMessage(err: unknown, labels: Record<string, string> = {}): ShownError {
  if (err instanceof AxiosError) {
    const body = err.response?.data as Partial<ErrorBody> | undefined;
    const code = body?.error;
    if (isErrorCode(code) && i18n.exists(`errors.${code}`)) {
      const title = i18n.t(`errors.${code}`);
      const issues = body?.issues?.filter((i) => i.code || i.message) ?? [];
      if (issues.length > 0) {
        const fields = Object.fromEntries(issues.filter((i) => i.code !== 'settingMissing').map((i) => [i.path, issueText(i)]));
        const settings = issues.some((i) => i.code && FIXED_IN_SETTINGS.has(i.code));
        // An SMTP failure: its sentence says it all (the server's own words are for the logs).
        const text = code === 'ERR_EMAIL_SEND_FAILED' ? `${title} ${issuesText(issues, {})}` : `${title} ${issuesText(issues, labels)}`;
        return { text, code, fields, ...(settings ? { settings } : {}) };
      }
      // A provider's refusal (Graph): its reason is the useful part, shown after the translated code.
      if (PROVIDER_ERRORS.has(code) && body?.message) return { text: `${title} ${body.message}`, code };
      return { text: title, code };
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

function show(kind: 'error' | 'success', text: ReactNode, options: { toastId?: string; autoClose: number }): void {
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
  const { text, code, settings } = errorMessage(err);
  // The toasts live outside the router: a plain link to Settings.
  const content = settings ? createElement('span', null, text, ' ', createElement('a', { href: '/settings', style: { color: 'inherit', fontWeight: 600 } }, i18n.t('errors.openSettings'))) : text;
  show('error', content, { toastId: code ?? text, autoClose: settings ? 8000 : 3000 });
}

export function toastSuccess(text: string): void {
  show('success', text, { autoClose: 3000 });
}
