import type { Vonage } from '@vonage/server-sdk';
import { AppError } from '../../http/app-error.js';
import type { SettingsService } from '../settings/settings.service.js';

/** What a provider answered for one send: its message or call id. */
export interface ProviderSent {
  id: string;
}

/** The provider refused the send (4xx, an error status in the answer): its reason, shown on the page. */
export class ProviderRefused extends Error {}
/** No answer in time: the send may have happened, so it is not made again (its outcome is unknown). */
export class ProviderNoAnswer extends Error {}

export interface ProviderUrls {
  vonageRestUrl: string;
  vonageApiUrl: string;
  instagramGraphUrl: string;
  timeoutMs: number;
}

/**
 * A PEM key as pasted into a one-line field (its line breaks dropped, turned into spaces or written as \n):
 * its header, its base64 in lines of 64, its footer.
 */
export function normalizePem(value: string): string {
  const match = /-----BEGIN ([A-Z ]*PRIVATE KEY)-----([\s\S]*?)-----END \1-----/.exec(value.replace(/\\n/g, '\n'));
  if (!match) return value;
  const body = match[2]!.replace(/\s+/g, '');
  return `-----BEGIN ${match[1]}-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${match[1]}-----\n`;
}

function notConfigured(what: string, keys: string[]): AppError {
  // One issue a missing setting (path: its key): the web names each as Settings labels it, with a link there.
  return new AppError('ERR_PROVIDER_NOT_CONFIGURED', `${what} is not configured: set ${keys.join(', ')} in the settings.`, {
    issues: keys.map((key) => ({ path: key, message: 'Required', code: 'settingMissing' })),
  });
}

/** The text of a failed HTTP answer: the provider's own words when its body says them. */
async function responseReason(response: Response | undefined): Promise<string | null> {
  if (!response) return null;
  try {
    const text = await response.clone().text();
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      const error = body.error as Record<string, unknown> | undefined;
      const parts = [body.title, body.detail, body['error-text'], error?.message].filter((p) => typeof p === 'string' && p);
      if (parts.length > 0) return `${response.status}: ${parts.join(' — ')}`;
    } catch {
      // not JSON
    }
    return `${response.status}: ${text.slice(0, 300) || response.statusText}`;
  } catch {
    return `${response.status}: ${response.statusText}`;
  }
}

/** An SDK or fetch failure as the page shows it: a refusal with the provider's reason, or the network's. */
async function providerError(err: unknown): Promise<Error> {
  const e = err as { response?: Response | { messages?: { errorText?: string; status?: string }[] }; message?: string; name?: string };
  if (e.response && 'messages' in e.response && Array.isArray(e.response.messages)) {
    const m = e.response.messages[0];
    return new ProviderRefused(`Status ${m?.status ?? '?'}: ${m?.errorText ?? 'refused'}`);
  }
  if (e.response && typeof (e.response as Response).status === 'number') {
    return new ProviderRefused((await responseReason(e.response as Response)) ?? (e.message || 'refused'));
  }
  if (e.name === 'AbortError' || e.name === 'TimeoutError' || /aborted|timeout/i.test(e.message ?? '')) {
    return new ProviderNoAnswer(`No answer from the provider in time (${e.message})`);
  }
  return new Error(e.message || String(err));
}

/**
 * Vonage (SMS API and Voice API) through @vonage/server-sdk, and Meta's Graph API for Instagram direct, with the
 * credentials of the settings read at each send (a change applies to the next send).
 */
export class Providers {
  constructor(
    private readonly settings: SettingsService,
    private readonly urls: ProviderUrls,
  ) {}

  private async vonage(voice: boolean): Promise<Vonage> {
    const [apiKey, apiSecret, applicationId, privateKey] = await Promise.all(
      (['vonageApiKey', 'vonageApiSecret', 'vonageApiId', 'vonagePrivateKey'] as const).map((k) => this.settings.value(k)),
    );
    if (voice) {
      if (!applicationId || !privateKey) throw notConfigured('Vonage voice calls', ['vonageApiId', 'vonagePrivateKey']);
    } else if (!apiKey || !apiSecret) {
      throw notConfigured('Vonage SMS', ['vonageApiKey', 'vonageApiSecret']);
    }
    // Loaded on first use: the SDK costs ~15 MB of memory that a desk without SMS or calls should not carry.
    const { Vonage: VonageClient } = await import('@vonage/server-sdk');
    return new VonageClient(
      voice ? { applicationId, privateKey: normalizePem(privateKey!) } : { apiKey: apiKey!, apiSecret: apiSecret! },
      { restHost: this.urls.vonageRestUrl, apiHost: this.urls.vonageApiUrl, timeout: this.urls.timeoutMs },
    );
  }

  /** Checks the settings a channel needs (before a batch is stored). */
  async check(channel: 'sms' | 'voice' | 'instagram'): Promise<void> {
    if (channel === 'instagram') await this.instagramConfig();
    else await this.vonage(channel === 'voice');
  }

  async sendSms(from: string, to: string, text: string): Promise<ProviderSent> {
    const client = await this.vonage(false);
    try {
      const answer = await client.sms.send({ from, to, text });
      const id = answer.messages[0]?.messageId ?? (answer.messages[0] as unknown as Record<string, string> | undefined)?.['message-id'];
      return { id: String(id ?? '') };
    } catch (err) {
      throw await providerError(err);
    }
  }

  /** A call that reads `text` aloud (an NCCO talk action) in `language`. */
  async call(from: string, to: string, text: string, language: string): Promise<ProviderSent> {
    const client = await this.vonage(true);
    try {
      const answer = await client.voice.createOutboundCall({
        to: [{ type: 'phone', number: to }],
        from: { type: 'phone', number: from },
        ncco: [{ action: 'talk', text, language }],
      } as never);
      return { id: String((answer as { uuid?: string }).uuid ?? '') };
    } catch (err) {
      throw await providerError(err);
    }
  }

  private async instagramConfig() {
    const [accountId, token] = await Promise.all([this.settings.value('instagramAccountId'), this.settings.value('instagramAccessToken')]);
    if (!accountId || !token) throw notConfigured('Instagram direct', ['instagramAccountId', 'instagramAccessToken']);
    return { accountId, token };
  }

  /** An Instagram user's name (or @username) by their scoped id, for the contact; null when the API does not say. */
  async instagramProfileName(userId: string): Promise<string | null> {
    const { token } = await this.instagramConfig();
    try {
      const response = await fetch(`${this.urls.instagramGraphUrl}/${userId}?fields=name,username`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(Math.min(this.urls.timeoutMs, 5000)),
      });
      if (!response.ok) return null;
      const body = (await response.json()) as { name?: string; username?: string };
      const name = body.name?.trim() || (body.username ? `@${body.username}` : '');
      return name ? name.slice(0, 200) : null;
    } catch {
      return null;
    }
  }

  /** `POST /{ig-account-id}/messages` of the Instagram messaging API. */
  async sendDirect(recipientId: string, text: string): Promise<ProviderSent> {
    const { accountId, token } = await this.instagramConfig();
    let response: Response;
    try {
      response = await fetch(`${this.urls.instagramGraphUrl}/${accountId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ recipient: { id: recipientId }, message: { text } }),
        signal: AbortSignal.timeout(this.urls.timeoutMs),
      });
    } catch (err) {
      throw await providerError(err);
    }
    if (!response.ok) throw new ProviderRefused((await responseReason(response)) ?? `HTTP ${response.status}`);
    const body = (await response.json().catch(() => ({}))) as { message_id?: string };
    return { id: body.message_id ?? '' };
  }
}
