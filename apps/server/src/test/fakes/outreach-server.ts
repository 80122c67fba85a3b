import { createPublicKey, createVerify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server answering like Vonage's SMS API (`POST /sms/json`), Voice API (`POST /v1/calls`, a JWT
 * signed with the application's private key) and Meta's Graph API for Instagram (`POST /v21.0/{ig-account-id}/messages`):
 * it checks the request's shape and credentials and answers as they do, errors included. The integration tests and
 * the end-to-end test of issue 16 both talk to it.
 */
export interface FakeOutreachOptions {
  apiKey: string;
  apiSecret: string;
  /** The Vonage application's id and public key (voice calls); without them every call is refused. */
  applicationId?: string;
  publicKey?: string;
  instagramAccountId: string;
  instagramToken: string;
  /** Numbers the provider refuses (SMS status 6, voice 400). */
  refuses?: (to: string) => boolean;
}

export interface OutreachRequest {
  path: string;
  auth: string;
  body: Record<string, unknown>;
}

/** Recipients the fake treats specially: refused (default `refuses`), 5xx, no answer (a timeout), connection dropped. */
export const OUTREACH_REFUSED = '5511900000004';
export const OUTREACH_SERVER_ERROR = '5511900000005';
export const OUTREACH_SILENT = '5511900000006';
export const OUTREACH_DROPPED = '5511900000007';
/** An Instagram recipient that is not available (Graph error 551). */
export const INSTAGRAM_UNAVAILABLE = '99999';

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
  });
}

export class FakeOutreachServer {
  private server: Server | null = null;
  /** The server's base URL (Vonage's REST and API URL); the Graph API's is `${baseUrl}/v21.0`. */
  baseUrl = '';
  /** Every request, in order. */
  readonly received: OutreachRequest[] = [];
  private sequence = 0;

  constructor(readonly options: FakeOutreachOptions) {}

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void readBody(req).then((raw) => this.handle(req, res, raw)));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private refused(to: string): boolean {
    return this.options.refuses ? this.options.refuses(to) : to === OUTREACH_REFUSED;
  }

  private verifyJwt(token: string): Record<string, unknown> | null {
    const { publicKey } = this.options;
    const [h, p, s] = token.split('.');
    if (!publicKey || !h || !p || !s) return null;
    const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
    if (header.alg !== 'RS256') return null;
    const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(createPublicKey(publicKey), Buffer.from(s, 'base64url'));
    return ok ? (JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>) : null;
  }

  private handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const { options } = this;
    const contentType = String(req.headers['content-type'] ?? '');
    const body = (contentType.includes('json') ? JSON.parse(raw || '{}') : Object.fromEntries(new URLSearchParams(raw))) as Record<string, unknown>;
    const auth = String(req.headers.authorization ?? '');
    this.received.push({ path: req.url ?? '', auth, body });
    const target = Array.isArray(body.to) ? String((body.to[0] as { number?: string }).number) : String(body.to ?? (body.recipient as { id?: string } | undefined)?.id ?? '');
    if (target === OUTREACH_SILENT) return; // never answers
    if (target === OUTREACH_DROPPED) return void req.socket.destroy();
    if (target === OUTREACH_SERVER_ERROR) return json(res, 500, { type: 'https://developer.nexmo.com/api-errors#internal', title: 'Internal Error', detail: 'Try again later' });

    if (req.method === 'POST' && req.url === '/sms/json') {
      const basic = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : `${String(body.api_key)}:${String(body.api_secret)}`;
      if (basic !== `${options.apiKey}:${options.apiSecret}`) {
        return json(res, 200, { 'message-count': '1', messages: [{ status: '4', 'error-text': 'Bad Credentials' }] });
      }
      if (!body.from || !body.to || !body.text) return json(res, 200, { 'message-count': '1', messages: [{ status: '2', 'error-text': 'Missing to param' }] });
      if (this.refused(target)) return json(res, 200, { 'message-count': '1', messages: [{ to: target, status: '6', 'error-text': 'Unroutable message - rejected' }] });
      return json(res, 200, {
        'message-count': '1',
        messages: [{ to: target, 'message-id': `sms-${++this.sequence}`, status: '0', 'remaining-balance': '9.9', 'message-price': '0.05', network: '72410' }],
      });
    }
    if (req.method === 'POST' && req.url === '/v1/calls') {
      const claims = auth.startsWith('Bearer ') ? this.verifyJwt(auth.slice(7)) : null;
      if (!claims || !options.applicationId || claims.application_id !== options.applicationId) {
        return json(res, 401, { type: 'https://developer.nexmo.com/api-errors#unauthorized', title: 'Unauthorized', detail: 'Invalid Token' });
      }
      const ncco = body.ncco as { action?: string; text?: string; language?: string }[] | undefined;
      const from = body.from as { type?: string; number?: string } | undefined;
      if (!Array.isArray(body.to) || from?.type !== 'phone' || !ncco?.[0] || ncco[0].action !== 'talk' || !ncco[0].text) {
        return json(res, 400, { type: 'https://developer.nexmo.com/api-errors#bad-request', title: 'Bad Request', detail: 'Invalid call request' });
      }
      if (this.refused(target)) return json(res, 400, { type: 'https://developer.nexmo.com/api-errors#bad-request', title: 'Bad Request', detail: 'Invalid to number' });
      return json(res, 201, { uuid: `call-${++this.sequence}`, status: 'started', direction: 'outbound', conversation_uuid: `CON-${this.sequence}` });
    }
    const graph = /^\/v21\.0\/(\d+)\/messages$/.exec(req.url ?? '');
    if (req.method === 'POST' && graph) {
      if (auth !== `Bearer ${options.instagramToken}` || graph[1] !== options.instagramAccountId) {
        return json(res, 401, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'x' } });
      }
      const recipient = body.recipient as { id?: string } | undefined;
      const message = body.message as { text?: string } | undefined;
      if (!recipient?.id || !message?.text) return json(res, 400, { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } });
      if (recipient.id === INSTAGRAM_UNAVAILABLE) {
        return json(res, 400, { error: { message: "(#551) This person isn't available right now.", type: 'OAuthException', code: 551, fbtrace_id: 'y' } });
      }
      return json(res, 200, { recipient_id: recipient.id, message_id: `m_${++this.sequence}` });
    }
    json(res, 404, { error: 'not found' });
  }
}
