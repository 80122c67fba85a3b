import type { ErrorCode } from '@wadesk/contracts';
import { AppError } from '../../http/app-error.js';
import type { CloudApiConfig } from '../../db/schema.js';

/** Meta's Graph API, where the Cloud API lives (WHATSAPP_GRAPH_URL overrides it: tests point it at a loopback server). */
export const DEFAULT_GRAPH_URL = 'https://graph.facebook.com/v21.0';

/** An error object as the Graph API answers it. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_data?: { details?: string };
  fbtrace_id?: string;
}

/** Codes the Graph API uses for "too many messages" (throughput, spam rate limit, pair rate limit). */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);
/** Re-engagement: more than 24 hours since the customer last wrote. */
export const REENGAGEMENT_CODE = 131047;

/** A refusal of the Graph API, with its code, turned into an error the attendant reads in words. */
function codeOf(graphCode: number | undefined, httpStatus: number): ErrorCode {
  if (graphCode === REENGAGEMENT_CODE) return 'ERR_CLOUD_API_WINDOW_CLOSED';
  if ((graphCode !== undefined && RATE_LIMIT_CODES.has(graphCode)) || httpStatus === 429) return 'ERR_CLOUD_API_RATE_LIMITED';
  return 'ERR_CLOUD_API_ERROR';
}

/** A refusal of the Graph API, with its code, turned into an error the attendant reads in words. */
export class GraphError extends AppError {
  readonly graphCode: number | undefined;
  readonly httpStatus: number;

  constructor(graphCode: number | undefined, httpStatus: number, graphMessage: string) {
    super(codeOf(graphCode, httpStatus), `${graphMessage}${graphCode !== undefined ? ` (code ${graphCode})` : ''}`);
    this.graphCode = graphCode;
    this.httpStatus = httpStatus;
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Calls to one connection's phone number on the Graph API, with its token. */
export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly config: CloudApiConfig,
    private readonly fetchImpl: FetchLike = fetch,
  ) {}

  private url(path: string): string {
    return `${this.baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.config.accessToken}` };
    let payload: RequestInit['body'];
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await this.fetchImpl(this.url(path), { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      throw new GraphError(undefined, 0, `The Graph API could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const error = (json as { error?: GraphErrorBody } | null)?.error;
      const details = error?.error_data?.details;
      throw new GraphError(error?.code, res.status, [error?.message ?? `HTTP ${res.status}`, details].filter(Boolean).join(': '));
    }
    return json as T;
  }

  /** The phone number's own record: the "connect" test call. */
  phoneNumber(): Promise<{ id: string; display_phone_number?: string; verified_name?: string }> {
    return this.call('GET', `${this.config.phoneNumberId}?fields=display_phone_number,verified_name`);
  }

  /** Sends one message object (`POST /{phone-number-id}/messages`); answers Meta's message id. */
  async sendMessage(message: Record<string, unknown>): Promise<string> {
    const res = await this.call<{ messages?: { id: string }[] }>('POST', `${this.config.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...message,
    });
    const id = res.messages?.[0]?.id;
    if (!id) throw new GraphError(undefined, 200, 'The Graph API answered no message id');
    return id;
  }

  /** Uploads a file (`POST /{phone-number-id}/media`); answers its media id. */
  async uploadMedia(data: Buffer, mimetype: string, filename: string): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', mimetype);
    form.append('file', new Blob([new Uint8Array(data)], { type: mimetype }), filename);
    const res = await this.call<{ id?: string }>('POST', `${this.config.phoneNumberId}/media`, form);
    if (!res.id) throw new GraphError(undefined, 200, 'The Graph API answered no media id');
    return res.id;
  }

  /** Downloads a received file: its URL from `GET /{media-id}`, then the bytes with the token. */
  async downloadMedia(mediaId: string): Promise<{ data: Buffer; mimetype: string }> {
    const info = await this.call<{ url?: string; mime_type?: string }>('GET', mediaId);
    if (!info.url) throw new GraphError(undefined, 200, 'The Graph API answered no media URL');
    const res = await this.fetchImpl(info.url, {
      headers: { authorization: `Bearer ${this.config.accessToken}` },
      signal: AbortSignal.timeout(60_000),
    });
    if (!res.ok) throw new GraphError(undefined, res.status, `Downloading the media failed (HTTP ${res.status})`);
    return { data: Buffer.from(await res.arrayBuffer()), mimetype: info.mime_type ?? res.headers.get('content-type') ?? 'application/octet-stream' };
  }

  /** Approved and pending templates of the business account. */
  templates(): Promise<{ data?: GraphTemplate[] }> {
    return this.call('GET', `${this.config.businessAccountId}/message_templates?limit=200`);
  }
}

export interface GraphTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components?: { type: string; text?: string; format?: string }[];
}
