import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that answers like Typebot's chat API (v1): `POST /api/v1/typebots/{publicId}/startChat`
 * and `POST /api/v1/sessions/{sessionId}/continueChat`, with the response shapes of docs.typebot.io's API reference
 * (messages of type text with `content.richText`, image / video / audio with `content.url`, embed; `input` with
 * `type: 'choice input'` and `items[].content`; a 404 `{ message, code: 'NOT_FOUND' }` for an unknown session).
 * A fake of Typebot's protocol, not of our code.
 */

export interface RichTextLeaf {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
}
export interface RichTextElement {
  type: string;
  url?: string;
  children: (RichTextElement | RichTextLeaf)[];
}

export type FakeBubble =
  | { type: 'text'; richText: RichTextElement[] }
  | { type: 'image' | 'video' | 'audio'; url: string }
  | { type: 'embed'; url: string };

/** One block of the flow: its bubbles, then the input it waits for (none: the flow ends). */
export interface FakeStep {
  bubbles: FakeBubble[];
  input?: { type: 'text input' } | { type: 'choice input'; items: string[] };
}

/** A paragraph of plain text (or of leaves with marks). */
export function p(...children: (string | RichTextLeaf | RichTextElement)[]): RichTextElement {
  return { type: 'p', children: children.map((c) => (typeof c === 'string' ? { text: c } : c)) };
}

export function text(...paragraphs: RichTextElement[]): FakeBubble {
  return { type: 'text', richText: paragraphs };
}

export interface FakeRequest {
  path: string;
  body: any;
}

type Fault = { kind: 'status'; status: number; message: string } | { kind: 'hang' } | { kind: 'garbage' } | { kind: 'slow'; ms: number };

export class FakeTypebot {
  readonly requests: FakeRequest[] = [];
  /** Each session's position in its flow and the answers it was given. */
  readonly sessions = new Map<string, { publicId: string; step: number; answers: string[] }>();
  private readonly flows = new Map<string, FakeStep[]>();
  private faults: Fault[] = [];
  private stuck: ServerResponse[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeTypebot> {
    const holder: { fake?: FakeTypebot } = {};
    const server = createServer((req, res) => void holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.fake = new FakeTypebot(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.fake;
  }

  /** Publishes a flow under a public id. */
  flow(publicId: string, steps: FakeStep[]): void {
    this.flows.set(publicId, steps);
  }

  /** The next requests fail like this, in order (one fault each). */
  failNext(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  /** Typebot forgets every session (as when they expire). */
  forgetSessions(): void {
    this.sessions.clear();
  }

  requestsTo(kind: 'startChat' | 'continueChat'): FakeRequest[] {
    return this.requests.filter((r) => r.path.endsWith(`/${kind}`));
  }

  async close(): Promise<void> {
    for (const res of this.stuck) res.destroy();
    this.stuck = [];
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: any;
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    } catch {
      return send(res, 400, { message: 'Invalid JSON', code: 'BAD_REQUEST' });
    }
    const path = (req.url ?? '').split('?')[0]!;
    this.requests.push({ path, body });
    let fault = this.faults.shift();
    if (fault?.kind === 'slow') {
      // Answers normally, late.
      await new Promise((resolve) => setTimeout(resolve, fault!.kind === 'slow' ? fault!.ms : 0));
      fault = undefined;
    }
    if (fault?.kind === 'hang') {
      this.stuck.push(res);
      return;
    }
    if (fault?.kind === 'status') return send(res, fault.status, { message: fault.message, code: 'INTERNAL_SERVER_ERROR' });
    if (fault?.kind === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
      return;
    }
    // The files its bubbles point to (as Typebot's S3 links): a tiny PNG, or bytes typed by the extension.
    if (req.method === 'GET' && path.startsWith('/media/')) {
      const type = path.endsWith('.mp4') ? 'video/mp4' : path.endsWith('.mp3') ? 'audio/mpeg' : 'image/png';
      res.writeHead(200, { 'content-type': type });
      res.end(type === 'image/png' ? TINY_PNG : Buffer.alloc(2048, 7));
      return;
    }
    // The viewer's page of a published bot (what /ZDGChatbot frames).
    if (req.method === 'GET' && this.flows.has(decodeURIComponent(path.slice(1)))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body style="font-family:sans-serif;margin:0;display:grid;place-items:center;height:100vh;background:#f6f8fb"><main><h1>Typebot</h1><p id="bot">${escapeHtml(decodeURIComponent(path.slice(1)))}</p></main></body></html>`);
      return;
    }
    if (req.method !== 'POST') return send(res, 405, { message: 'Method not allowed', code: 'METHOD_NOT_SUPPORTED' });

    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    if (start) {
      const publicId = decodeURIComponent(start[1]!);
      const steps = this.flows.get(publicId);
      if (!steps) return send(res, 404, { message: "Couldn't find typebot", code: 'NOT_FOUND' });
      const sessionId = randomUUID().replace(/-/g, '').slice(0, 24);
      this.sessions.set(sessionId, { publicId, step: 0, answers: [] });
      return send(res, 200, {
        sessionId,
        resultId: randomUUID(),
        typebot: { id: `tb-${publicId}`, theme: {}, settings: {} },
        ...this.reply(steps[0]!),
      });
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (cont) {
      const session = this.sessions.get(decodeURIComponent(cont[1]!));
      if (!session) return send(res, 404, { message: 'Session not found.', code: 'NOT_FOUND' });
      const steps = this.flows.get(session.publicId)!;
      const current = steps[session.step];
      const answer = typeof body?.message === 'string' ? body.message : body?.message?.text;
      if (!current?.input) return send(res, 400, { message: 'Session is not waiting for an input', code: 'BAD_REQUEST' });
      if (typeof answer !== 'string') return send(res, 400, { message: 'Missing message', code: 'BAD_REQUEST' });
      // A choice input takes one of its items (as Typebot, case-insensitively); anything else asks again.
      if (current.input.type === 'choice input' && !current.input.items.some((i) => i.toLowerCase() === answer.trim().toLowerCase())) {
        return send(res, 200, { messages: [{ id: randomUUID(), type: 'text', content: { type: 'richText', richText: [p('Invalid message. Please, try again.')] } }], input: this.input(current) });
      }
      session.answers.push(answer);
      session.step += 1;
      const next = steps[session.step];
      if (!next) return send(res, 200, { messages: [] });
      return send(res, 200, { ...this.reply(next), lastMessageNewFormat: answer });
    }
    return send(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
  }

  private reply(step: FakeStep) {
    const messages = step.bubbles.map((b) =>
      b.type === 'text'
        ? { id: randomUUID(), type: 'text', content: { type: 'richText', richText: b.richText } }
        : b.type === 'embed'
          ? { id: randomUUID(), type: 'embed', content: { url: b.url, height: 400 } }
          : { id: randomUUID(), type: b.type, content: { url: b.url } },
    );
    return { messages, ...(step.input ? { input: this.input(step) } : {}), clientSideActions: [], logs: [] };
  }

  private input(step: FakeStep) {
    const input = step.input!;
    if (input.type === 'choice input') {
      return {
        id: 'input-choice',
        type: 'choice input',
        items: input.items.map((content, i) => ({ id: `item-${i}`, content, outgoingEdgeId: `edge-${i}` })),
        options: { isMultipleChoice: false },
      };
    }
    return { id: 'input-text', type: 'text input', options: { labels: { placeholder: 'Type your answer...' } } };
  }
}

const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
