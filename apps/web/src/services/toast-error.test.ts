import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { toast } from 'react-toastify';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { connection } from './connection-state';
import { errorMessage, toastError } from './toast-error';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

function httpError(status: number, data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response = { status, statusText: '', headers: {}, config, data } as AxiosResponse;
  return new AxiosError('Request failed', 'ERR_BAD_RESPONSE', config, null, response);
}

describe('errorMessage (§8)', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('translates a known code and uses it as the toast id', () => {
    expect(errorMessage(httpError(403, { error: 'ERR_NO_PERMISSION', message: 'nope' }))).toEqual({
      text: "You don't have permission to access this resource.",
      code: 'ERR_NO_PERMISSION',
    });
  });

  it('never shows axios\'s "Network Error": a call without an answer says so in the user\'s language', async () => {
    const config = { headers: new AxiosHeaders() };
    const offline = new AxiosError('Network Error', 'ERR_NETWORK', config, {});
    expect(errorMessage(offline).text).toBe("Can't reach the server. Check your internet connection and try again.");
    await i18n.changeLanguage('pt');
    expect(errorMessage(new AxiosError('timeout of 1000ms exceeded', 'ECONNABORTED', config, {})).text).toMatch(/^Não foi possível/);
    expect(errorMessage(new TypeError('Failed to fetch')).text).toMatch(/^Não foi possível/);
    await i18n.changeLanguage('en');
  });

  it("shows the Cloud API's errors in words: Meta's reason and code after the translated text; the closed window and rate limit translated (issue 18)", async () => {
    expect(errorMessage(httpError(400, { error: 'ERR_CLOUD_API_ERROR', message: '(#131026) Message undeliverable (code 131026)' })).text).toBe(
      'WhatsApp (Cloud API) refused the request. (#131026) Message undeliverable (code 131026)',
    );
    await i18n.changeLanguage('pt');
    expect(errorMessage(httpError(400, { error: 'ERR_CLOUD_API_WINDOW_CLOSED', message: 'x' })).text).toMatch(/^Passaram-se mais de 24 horas/);
    expect(errorMessage(httpError(429, { error: 'ERR_CLOUD_API_RATE_LIMITED', message: 'x' })).text).toMatch(/^O WhatsApp \(Cloud API\) está limitando/);
    expect(errorMessage(httpError(400, { error: 'ERR_REACTION_NOT_OFFERED', message: 'x' })).text).toBe('Esta conexão não permite reações.');
    await i18n.changeLanguage('es');
    expect(errorMessage(httpError(400, { error: 'ERR_REACTION_NOT_OFFERED', message: 'x' })).text).toBe('Esta conexión no permite reacciones.');
    await i18n.changeLanguage('en');
  });

  it('shows the server text for an unknown code, with the code as id', () => {
    expect(errorMessage(httpError(400, { error: 'ERR_SOMETHING_NEW', message: 'Something new' }))).toEqual({
      text: 'Something new',
      code: 'ERR_SOMETHING_NEW',
    });
  });

  it("falls back to 'An error occurred!' with no message", () => {
    expect(errorMessage(httpError(500, ''))).toEqual({ text: 'An error occurred!' });
    expect(errorMessage(undefined)).toEqual({ text: 'An error occurred!' });
  });

  it('translates in the chosen language', async () => {
    await i18n.changeLanguage('pt');
    expect(errorMessage(httpError(401, { error: 'ERR_SESSION_EXPIRED', message: 'x' })).text).toBe(
      'Sessão expirada. Por favor, entre novamente.',
    );
    await i18n.changeLanguage('en');
  });
});

describe('toastError and connection losses (issue 10)', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    connection.reportRequestSuccess();
  });

  it('shows no toast for 503 ERR_DB_UNAVAILABLE; the reconnecting bar shows instead', () => {
    toastError(httpError(503, { error: 'ERR_DB_UNAVAILABLE', message: 'Database unavailable' }));
    expect(toast.error).not.toHaveBeenCalled();
    expect(connection.isReconnecting()).toBe(true);
  });

  it('shows no toast when the server does not answer at all', () => {
    const config = { headers: new AxiosHeaders() };
    toastError(new AxiosError('Network Error', 'ERR_NETWORK', config, {}));
    expect(toast.error).not.toHaveBeenCalled();
    expect(connection.isReconnecting()).toBe(true);
  });

  it('still toasts the errors the server answers', async () => {
    toastError(httpError(409, { error: 'ERR_DUPLICATED_CONTACT', message: 'dup' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledTimes(1));
    expect(toast.error).toHaveBeenCalledWith(expect.any(String), { toastId: 'ERR_DUPLICATED_CONTACT', autoClose: 3000 });
    expect(connection.isReconnecting()).toBe(false);
  });
});
