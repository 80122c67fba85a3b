import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { headingSlug, renderMarkdown } from './guide-markdown.js';
import { UserGuide } from './user-guide.js';

/** A built web app, so that the catch-all (index.html for every client-side route) is there to steal /guide/. */
const webDist = mkdtempSync(path.join(os.tmpdir(), 'wadesk-guide-web-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>WA Desk app</title>');
const t = useTestApp({ config: { webDist } });
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}) => t.app.http.inject({ method: 'GET', url, headers });

/** The guide of the repository (docs/guide), served by the desk at /guide/ to anyone (decision 0036). */
describe('GET /guide/: the user guide', () => {
  it('renders the English contents at /guide/en/ as an HTML page, without signing in', async () => {
    const res = await get('/guide/en/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('<title>WA Desk user guide</title>');
    expect(res.body).toContain('<h1 id="wa-desk-user-guide">WA Desk user guide</h1>');
    // The pages and pictures by their relative links, as in the repository; the stylesheet and the way back.
    expect(res.body).toContain('<a href="first-steps.md">First steps</a>');
    expect(res.body).toContain('<img src="../images/en/29-user-menu.png" alt="The user menu with Profile, Help and Logout"');
    expect(res.body).toContain('<link rel="stylesheet" href="../guide.css">');
    expect(res.body).toContain('<a href="../pt/" hreflang="pt" lang="pt">Português</a>');
    expect(res.body).toContain('<a href="../../">Back to the desk</a>');
  });

  it('renders a Portuguese page with its title, anchors for the links to its sections, and the English page beside it', async () => {
    const res = await get('/guide/pt/primeiros-passos.md');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="pt">');
    expect(res.body).toContain('<title>Primeiros passos · Guia do usuário do WA Desk</title>');
    // tickets.md links to primeiros-passos.md#conectar-um-número-de-whatsapp, as GitHub names the heading.
    expect(res.body).toContain('<h2 id="conectar-um-número-de-whatsapp">Conectar um número de WhatsApp</h2>');
    expect(res.body).toContain('<a href="../en/first-steps.md" hreflang="en" lang="en">English</a>');
    expect(res.body).toContain('<a href="./">Conteúdo</a>');
  });

  it('sends the pictures with their type, and 304 while unchanged', async () => {
    const res = await get('/guide/images/en/01-login.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const again = await get('/guide/images/en/01-login.png', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('sends its stylesheet from the same origin', async () => {
    const res = await get('/guide/guide.css');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toContain('.guide-page');
  });

  it('leads /guide and /guide/en to the address with the slash, where the relative links resolve', async () => {
    const bare = await get('/guide');
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/guide/');
    const folder = await get('/guide/en');
    expect(folder.statusCode).toBe(302);
    expect(folder.headers.location).toBe('/guide/en/');
    const top = await get('/guide/');
    expect(top.statusCode).toBe(200);
    expect(top.body).toContain('<a href="en/README.md">en/README.md</a>');
  });

  it('answers 404 for a path out of the guide, a dot-file or another kind of file, never the web app', async () => {
    for (const url of [
      '/guide/..%2F..%2FREADME.md',
      '/guide/en/..%2F..%2F..%2FREADME.md',
      '/guide/..%2F..%2Fapps%2Fserver%2Fpackage.json',
      '/guide/en/.hidden.md',
      '/guide/en/README.txt',
      '/guide/en/tickets.md.bak',
      '/guide/en/no-such-page.md',
      '/guide/images/en/no-such-picture.png',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('WA Desk app');
      expect(res.body, url).not.toContain('"name"');
    }
    // Dot segments written with escapes are resolved by the router (/README.md): the web app's page, not the file.
    const dots = await get('/guide/%2e%2e/%2e%2e/README.md');
    expect(dots.body).toContain('WA Desk app');
    expect(dots.body).not.toContain('customer-service desk');
  });
});

describe('UserGuide: only the guide folder files of the listed kinds', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'wadesk-guide-'));
  const dir = path.join(root, 'guide');
  mkdirSync(path.join(dir, 'en'), { recursive: true });
  writeFileSync(path.join(dir, 'en', 'README.md'), '# Guide\n\n1. [Page](page.md)\n');
  writeFileSync(path.join(dir, 'en', 'page.md'), '# A page\n\n## Tickets & queues\n\n## Tickets & queues\n');
  writeFileSync(path.join(dir, 'en', 'notes.txt'), 'not served');
  writeFileSync(path.join(root, 'outside.md'), '# Outside');
  symlinkSync(path.join(root, 'outside.md'), path.join(dir, 'en', 'linked.md'));
  const guide = new UserGuide(dir);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('renders a page, with the README for a folder and no language switch when there is no other language', async () => {
    const page = await guide.find('en/page.md');
    expect(page.kind).toBe('page');
    const html = page.kind === 'page' ? page.html : '';
    expect(html).toContain('<title>A page · WA Desk user guide</title>');
    expect(html).toContain('<h2 id="tickets--queues">Tickets &amp; queues</h2>');
    expect(html).toContain('<h2 id="tickets--queues-1">');
    expect(html).not.toContain('hreflang');
    expect((await guide.find('en/')).kind).toBe('page');
    expect(await guide.find('en')).toEqual({ kind: 'folder' });
  });

  it('refuses other kinds of file, dot segments, and links that lead out of the folder', async () => {
    for (const relative of ['en/notes.txt', '../outside.md', 'en/../../outside.md', 'en/linked.md', './en/page.md', 'en\\page.md', 'en/page.md\0.png']) {
      expect(await guide.find(relative), relative).toEqual({ kind: 'missing' });
    }
  });

  it('answers missing for everything when the folder does not exist', async () => {
    expect(await new UserGuide(path.join(root, 'nothing')).find('en/')).toEqual({ kind: 'missing' });
  });
});

describe('the guide as Markdown', () => {
  it('names headings as GitHub does', () => {
    expect(headingSlug('Connect a WhatsApp number')).toBe('connect-a-whatsapp-number');
    expect(headingSlug('Chatbot (Typebot)')).toBe('chatbot-typebot');
    expect(headingSlug('Conectar um número de WhatsApp')).toBe('conectar-um-número-de-whatsapp');
  });

  it('links each picture to itself at full size and takes the first heading as the title', () => {
    const { title, html } = renderMarkdown('# First *steps*\n\n![The login page](../images/en/01-login.png)\n');
    expect(title).toBe('First steps');
    expect(html).toContain('<a class="picture" href="../images/en/01-login.png"><img src="../images/en/01-login.png" alt="The login page" loading="lazy"></a>');
  });
});
