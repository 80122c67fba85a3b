import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { toast } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('errors in the words of the field, never its key or a raw cause (issue 33 item 13)', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says what is wrong with a field, translated, without its key; under the label its form gives it', async () => {
    const invalid = httpError(400, { error: 'ERR_VALIDATION', message: 'value: Invalid email', issues: [{ path: 'value', message: 'Invalid email' }] });
    expect(errorMessage(invalid)).toEqual({ text: 'Some fields are invalid. Invalid email', code: 'ERR_VALIDATION', fields: { value: 'Invalid email' } });
    expect(errorMessage(invalid, { value: 'E-mail sender' }).text).toBe('Some fields are invalid. E-mail sender: Invalid email');
    await i18n.changeLanguage('pt');
    const shown = errorMessage(invalid);
    expect(shown.text).not.toMatch(/value|Invalid/);
    expect(shown.fields).toEqual({ value: 'Email inválido' });
  });

  it('translates a path the server refuses, with its details, and never says "path:"', async () => {
    const answer = httpError(400, {
      error: 'ERR_VALIDATION',
      message: 'path: No file at price.pdf',
      issues: [{ path: 'path', message: 'No file at price.pdf', code: 'noSuchFile', params: { file: 'price.pdf', folder: 'campaigns' } }],
    });
    await i18n.changeLanguage('pt');
    expect(errorMessage(answer).fields).toEqual({ path: 'Não há arquivo “price.pdf” na pasta de mídia do envio em massa (campaigns): confira o nome.' });
    expect(errorMessage(answer).text).not.toContain('path');
  });

  it('names the missing settings as Settings labels them, with a link there', async () => {
    const answer = httpError(400, {
      error: 'ERR_PROVIDER_NOT_CONFIGURED',
      message: 'Vonage SMS is not configured: set vonageApiKey, vonageApiSecret in the settings.',
      issues: [
        { path: 'vonageApiKey', message: 'Required', code: 'settingMissing' },
        { path: 'vonageApiSecret', message: 'Required', code: 'settingMissing' },
      ],
    });
    await i18n.changeLanguage('en');
    const shown = errorMessage(answer);
    expect(shown.text).toBe('This channel is not configured: fill in its settings. Fill in “Vonage API key”, “Vonage API secret” in Settings.');
    expect(shown.settings).toBe(true);
    await i18n.changeLanguage('pt');
    expect(errorMessage(answer).text).not.toMatch(/vonageApi|Vonage API key/);
  });

  it("says once that the e-mail was not sent and why in the user's words, never the SMTP library's", async () => {
    const answer = httpError(502, {
      error: 'ERR_EMAIL_SEND_FAILED',
      message: 'The e-mail was not sent: Missing credentials for "PLAIN"',
      issues: [{ path: 'emailUser', message: 'Missing credentials for "PLAIN"', code: 'emailAuth' }],
    });
    await i18n.changeLanguage('en');
    const shown = errorMessage(answer);
    expect(shown.text).toBe('The e-mail was not sent. The e-mail server refused the user or password: check them in Settings.');
    expect(shown.settings).toBe(true);
    await i18n.changeLanguage('es');
    expect(errorMessage(answer).text).not.toMatch(/PLAIN|e-mail was not sent/);
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

describe('a bulk send URL the server would refuse (issue 33 item 14)', () => {
  it('says why on the field, in the user language, and how an admin allows local addresses', async () => {
    await i18n.changeLanguage('pt');
    const answer = httpError(400, {
      error: 'ERR_VALIDATION',
      message: 'url: the host resolves to a private or loopback address',
      issues: [{ path: 'url', message: 'the host resolves to a private or loopback address', code: 'mediaUrlPrivate' }],
    });
    expect(errorMessage(answer).fields?.url).toMatch(/^O servidor não busca arquivos em endereços locais.*MEDIA_FETCH_PRIVATE=allow/);
    await i18n.changeLanguage('en');
  });
});
