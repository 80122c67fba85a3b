import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureOf } from '../../channels/cloud-api/cloud-api-inbound.js';

/**
 * A loopback server that speaks the WhatsApp Cloud API (issue 18), as Meta's Graph API does: the phone number
 * record, `/{phone-number-id}/messages`, `/{phone-number-id}/media`, `/{media-id}` and the file it names,
 * `/{waba-id}/message_templates`, with Bearer tokens checked and Meta's error objects. It also makes webhook calls
 * the way Meta does, signed with the app secret (or badly signed, for the refusal tests).
 */
export interface FakeGraphOptions {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  displayPhoneNumber?: string;
}

export interface SentGraphMessage {
  to: string;
  type: string;
  body: Record<string, unknown>;
  id: string;
}

export interface StoredMedia {
  id: string;
  data: Buffer;
  mimetype: string;
  filename?: string;
}

export interface FakeTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string }[];
}

function graphError(res: ServerResponse, status: number, message: string, code: number, type = 'OAuthException', subcode?: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, code, ...(subcode !== undefined ? { error_subcode: subcode } : {}), fbtrace_id: `trace${code}` } }));
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class FakeGraphServer {
  private server: Server | null = null;
  baseUrl = '';
  /** Every message sent to `/messages`, in order. */
  readonly sent: SentGraphMessage[] = [];
  /** Files uploaded to `/media`, and files a webhook names (`addMedia`). */
  readonly media = new Map<string, StoredMedia>();
  /** Numbers whose 24-hour window is closed: free-form messages to them fail with 131047. */
  readonly closedWindows = new Set<string>();
  /** When set, every message fails with 130429 (rate limit hit). */
  rateLimited = false;
  /** When set, the phone number record answers an expired-token error (code 190). */
  tokenExpired = false;
  readonly templates: FakeTemplate[] = [
    { name: 'order_update', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} is on its way.' }] },
    { name: 'hello_world', language: 'en_US', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hello World' }] },
    { name: 'draft_offer', language: 'pt_BR', status: 'PENDING', category: 'MARKETING', components: [{ type: 'BODY', text: 'Oferta {{1}}' }] },
  ];
  /** Requests seen, as `METHOD path` (auth failures included). */
  readonly requests: string[] = [];
  private counter = 0;

  constructor(readonly options: FakeGraphOptions) {}

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => graphError(res, 500, String(err), 1, 'GraphMethodException'));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v21.0`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A file the "customer" sends: its media id, for a webhook message. */
  addMedia(data: Buffer, mimetype: string): string {
    const id = `media${++this.counter}`;
    this.media.set(id, { id, data, mimetype });
    return id;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/v[\d.]+\//, '/');
    this.requests.push(`${req.method} ${path}`);
    if (req.headers.authorization !== `Bearer ${this.options.accessToken}`) {
      return graphError(res, 401, 'Invalid OAuth access token - Cannot parse access token', 190);
    }
    const { phoneNumberId, businessAccountId } = this.options;
    if (req.method === 'GET' && path === `/${phoneNumberId}`) {
      if (this.tokenExpired) return graphError(res, 401, 'Error validating access token: Session has expired', 190, 'OAuthException', 463);
      return json(res, { id: phoneNumberId, display_phone_number: this.options.displayPhoneNumber ?? '+1 555-010-0000', verified_name: 'Fake Desk' });
    }
    if (req.method === 'POST' && path === `/${phoneNumberId}/messages`) return this.message(req, res);
    if (req.method === 'POST' && path === `/${phoneNumberId}/media`) return this.upload(req, res);
    if (req.method === 'GET' && path === `/${businessAccountId}/message_templates`) {
      return json(res, { data: this.templates.map((t, i) => ({ ...t, id: `tpl${i}` })), paging: { cursors: { before: 'a', after: 'b' } } });
    }
    const file = /^\/files\/([\w-]+)$/.exec(path);
    if (req.method === 'GET' && file) {
      const media = this.media.get(file[1]!);
      if (!media) return graphError(res, 404, 'Not found', 100, 'GraphMethodException');
      res.writeHead(200, { 'content-type': media.mimetype });
      return void res.end(media.data);
    }
    const mediaInfo = /^\/(media\d+)$/.exec(path);
    if (req.method === 'GET' && mediaInfo) {
      const media = this.media.get(mediaInfo[1]!);
      if (!media) return graphError(res, 400, 'Unsupported get request. Object does not exist', 100, 'GraphMethodException', 33);
      return json(res, {
        messaging_product: 'whatsapp',
        url: `${this.baseUrl.replace(/\/v[\d.]+$/, '')}/v21.0/files/${media.id}`,
        mime_type: media.mimetype,
        sha256: createHash('sha256').update(media.data).digest('hex'),
        file_size: media.data.length,
        id: media.id,
      });
    }
    return graphError(res, 400, `Unsupported ${req.method} request`, 100, 'GraphMethodException');
  }

  private async message(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!String(req.headers['content-type']).startsWith('application/json')) return graphError(res, 400, 'Expected JSON', 100);
    const body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    const to = String(body.to ?? '');
    const type = String(body.type ?? 'text');
    if (body.messaging_product !== 'whatsapp') return graphError(res, 400, '(#100) The parameter messaging_product is required.', 100);
    if (!/^\d{6,15}$/.test(to)) return graphError(res, 400, '(#100) Invalid parameter', 100);
    if (!body[type] || typeof body[type] !== 'object') return graphError(res, 400, `(#100) The parameter ${type} is required.`, 100);
    if (this.rateLimited) return graphError(res, 400, '(#130429) Rate limit hit', 130429);
    if (type !== 'template' && this.closedWindows.has(to)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({
        error: {
          message: '(#131047) Re-engagement message',
          type: 'OAuthException',
          code: 131047,
          error_data: { messaging_product: 'whatsapp', details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
          fbtrace_id: 'trace131047',
        },
      }));
    }
    if (type === 'template') {
      const template = body.template as { name?: string; language?: { code?: string } };
      const known = this.templates.find((t) => t.name === template.name && t.language === template.language?.code && t.status === 'APPROVED');
      if (!known) return graphError(res, 404, '(#132001) Template name does not exist in the translation', 132001);
    }
    const id = `wamid.FAKE${++this.counter}`;
    this.sent.push({ to, type, body, id });
    return json(res, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id }] });
  }

  private async upload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const request = new Request('http://fake/upload', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: new Uint8Array(raw) });
    const form = await request.formData();
    const file = form.get('file');
    if (form.get('messaging_product') !== 'whatsapp' || !(file instanceof Blob)) return graphError(res, 400, '(#100) Param file must be a file', 100);
    const id = `media${++this.counter}`;
    this.media.set(id, { id, data: Buffer.from(await file.arrayBuffer()), mimetype: String(form.get('type') ?? file.type), filename: (file as File).name });
    return json(res, { id });
  }

  /** Posts a webhook call as Meta does: JSON signed with the app secret (or a wrong one). */
  async deliver(webhookUrl: string, payload: unknown, options: { badSignature?: boolean } = {}): Promise<Response> {
    const raw = JSON.stringify(payload);
    const signature = options.badSignature ? signatureOf(raw, 'not-the-app-secret') : signatureOf(raw, this.options.appSecret);
    return fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: raw });
  }

  /** A webhook payload with these messages (and the contact's profile name). */
  messagesPayload(from: string, name: string, messages: Record<string, unknown>[]): unknown {
    return this.payload({ contacts: [{ profile: { name }, wa_id: from }], messages: messages.map((m) => ({ from, timestamp: String(Math.floor(Date.now() / 1000)), ...m })) });
  }

  /** A webhook payload with statuses of sent messages. */
  statusesPayload(statuses: { id: string; status: string; recipient: string; errors?: unknown[] }[]): unknown {
    return this.payload({
      statuses: statuses.map((s) => ({ id: s.id, status: s.status, timestamp: '1700000100', recipient_id: s.recipient, ...(s.errors ? { errors: s.errors } : {}) })),
    });
  }

  private payload(value: Record<string, unknown>): unknown {
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: this.options.businessAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550100000', phone_number_id: this.options.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    };
  }
}
