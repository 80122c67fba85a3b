/**
 * A client of Typebot's chat API (https://docs.typebot.io/api-reference/chat/start-chat and continue-chat):
 * `POST {viewer}/api/v1/typebots/{publicId}/startChat`, then `POST {viewer}/api/v1/sessions/{sessionId}/continueChat`,
 * text bubbles asked as rich text and turned into WhatsApp formatting here.
 */

/** One thing the bot says, ready for WhatsApp. */
export type BotOutput = { kind: 'text'; text: string } | { kind: 'media'; url: string; mediaType: 'image' | 'video' | 'audio' };

export interface BotTurn {
  sessionId: string | null;
  outputs: BotOutput[];
  /** The choices of a choice input (sent as a numbered list; the contact's number picks one), else null. */
  choices: string[] | null;
  /** The flow waits for an answer (false: it ended). */
  waitsForInput: boolean;
}

export class TypebotError extends Error {
  constructor(
    message: string,
    /** The HTTP status Typebot answered, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface TypebotClientOptions {
  /** How long one request may take. */
  timeoutMs: number;
}

interface RichTextNode {
  type?: string;
  text?: string;
  url?: string;
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  code?: boolean;
  children?: RichTextNode[];
}

interface TypebotMessage {
  type?: string;
  content?: { type?: string; richText?: RichTextNode[]; markdown?: string; plainText?: string; url?: string };
}

interface TypebotResponse {
  sessionId?: string;
  messages?: TypebotMessage[];
  input?: { type?: string; items?: { id?: string; content?: string }[] } | null;
}

function wrap(text: string, mark: string): string {
  // WhatsApp's marks apply to a run without surrounding spaces: keep the spaces outside.
  const match = /^(\s*)(.*?)(\s*)$/s.exec(text)!;
  return match[2] ? `${match[1]}${mark}${match[2]}${mark}${match[3]}` : text;
}

function inline(node: RichTextNode): string {
  if (node.text !== undefined && !node.children) {
    let text = node.text;
    if (node.code) text = wrap(text, '```');
    if (node.bold) text = wrap(text, '*');
    if (node.italic) text = wrap(text, '_');
    if (node.strikethrough) text = wrap(text, '~');
    return text;
  }
  const inner = (node.children ?? []).map(inline).join('');
  if (node.type === 'a' && node.url && inner.trim() && inner.trim() !== node.url) return `${inner} (${node.url})`;
  if (node.type === 'a' && node.url) return node.url;
  return inner;
}

function block(node: RichTextNode, prefix = ''): string[] {
  if (node.type === 'ol' || node.type === 'ul') {
    return (node.children ?? []).flatMap((item, i) => block(item, node.type === 'ol' ? `${i + 1}. ` : '• '));
  }
  if (node.type === 'li') {
    const children = node.children ?? [];
    const lines = children.flatMap((child) => (child.type === 'ol' || child.type === 'ul' ? block(child).map((l) => `  ${l}`) : [inline(child)]));
    return lines.length ? [`${prefix}${lines[0]}`, ...lines.slice(1)] : [prefix.trim()];
  }
  return [`${prefix}${inline(node)}`];
}

/** Typebot's rich text (Slate nodes: paragraphs, marks, links, lists) as WhatsApp text (*bold*, _italic_, ~strike~). */
export function richTextToWhatsapp(nodes: RichTextNode[]): string {
  return nodes.flatMap((n) => block(n)).join('\n').trim();
}

/** The numbered list of a choice input, as the queue menu's. */
export function choiceMenu(choices: string[]): string {
  return choices.map((c, i) => `*${i + 1}* - ${c}`).join('\n');
}

function toTurn(body: TypebotResponse, sessionId: string | null): BotTurn {
  const outputs: BotOutput[] = [];
  for (const m of body.messages ?? []) {
    const c = m.content ?? {};
    if (m.type === 'text') {
      const text = c.richText ? richTextToWhatsapp(c.richText) : (c.markdown ?? c.plainText ?? '').trim();
      if (text) outputs.push({ kind: 'text', text });
    } else if ((m.type === 'image' || m.type === 'video' || m.type === 'audio') && c.url) {
      outputs.push({ kind: 'media', url: c.url, mediaType: m.type });
    } else if (m.type === 'embed' && c.url) {
      outputs.push({ kind: 'text', text: c.url });
    }
  }
  const input = body.input ?? null;
  const choices =
    input?.type === 'choice input' ? (input.items ?? []).map((item) => (item.content ?? '').trim()).filter((content) => content !== '') : null;
  if (choices?.length) outputs.push({ kind: 'text', text: choiceMenu(choices) });
  return { sessionId, outputs, choices: choices?.length ? choices : null, waitsForInput: Boolean(input) };
}

export class TypebotClient {
  constructor(private readonly options: TypebotClientOptions) {}

  /** Starts the flow `publicId` of the viewer at `baseUrl` (no message: the flow's first bubbles). */
  async start(baseUrl: string, publicId: string, prefilledVariables: Record<string, string> = {}): Promise<BotTurn> {
    const body = await this.post(`${base(baseUrl)}/api/v1/typebots/${encodeURIComponent(publicId)}/startChat`, {
      isStreamEnabled: false,
      textBubbleContentFormat: 'richText',
      prefilledVariables,
    });
    if (typeof body.sessionId !== 'string' || !body.sessionId) throw new TypebotError('Typebot answered without a sessionId');
    return toTurn(body, body.sessionId);
  }

  /** The contact's answer to the session's waiting input. */
  async continue(baseUrl: string, sessionId: string, text: string): Promise<BotTurn> {
    const body = await this.post(`${base(baseUrl)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, {
      message: { type: 'text', text },
      textBubbleContentFormat: 'richText',
    });
    return toTurn(body, sessionId);
  }

  private async post(url: string, payload: object): Promise<TypebotResponse> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new TypebotError(timedOut ? `Typebot did not answer within ${this.options.timeoutMs} ms` : `Typebot unreachable: ${describe(err)}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new TypebotError(`Typebot's answer could not be read: ${describe(err)}`, res.status);
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: reported below
    }
    if (!res.ok) {
      const message = json && typeof json === 'object' && 'message' in json ? String((json as { message: unknown }).message) : text.slice(0, 200);
      throw new TypebotError(`Typebot answered ${res.status}${message ? `: ${message}` : ''}`, res.status);
    }
    if (!json || typeof json !== 'object') throw new TypebotError('Typebot answered something that is not JSON', res.status);
    return json as TypebotResponse;
  }
}

function base(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
