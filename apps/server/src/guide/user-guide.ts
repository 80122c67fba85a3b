import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { escapeHtml, renderMarkdown } from './guide-markdown.js';
import { GUIDE_STYLESHEET } from './guide-stylesheet.js';

/** The only files the guide serves, by extension, with the type they are sent as (Markdown as its HTML page). */
export const GUIDE_FILE_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.css': 'text/css; charset=utf-8',
};

/** The stylesheet every page links to, served by the desk itself at /guide/guide.css. */
const STYLESHEET = 'guide.css';
const INDEX = 'README.md';

/** The languages the guide is written in: one folder each (docs/guide/en, docs/guide/pt), and the page's own words. */
const LANGUAGES = {
  en: { name: 'English', guide: 'WA Desk user guide', contents: 'Contents', desk: 'Back to the desk' },
  pt: { name: 'Português', guide: 'Guia do usuário do WA Desk', contents: 'Conteúdo', desk: 'Voltar ao atendimento' },
} as const;
type GuideLanguage = keyof typeof LANGUAGES;
const isLanguage = (value: string | undefined): value is GuideLanguage => value !== undefined && Object.hasOwn(LANGUAGES, value);

export type GuideAnswer =
  /** A Markdown file, as a whole HTML page. */
  | { kind: 'page'; html: string }
  /** A picture or a stylesheet of the guide's folder: `file` is its path under `root`, with `/` (for @fastify/send). */
  | { kind: 'file'; root: string; file: string; type: string }
  | { kind: 'stylesheet'; css: string }
  /** A folder named without its trailing slash: the caller redirects, so that the page's relative links resolve. */
  | { kind: 'folder' }
  | { kind: 'missing' };

/**
 * The user guide (docs/guide: Markdown pages and their pictures, one folder per language) as the desk serves it at
 * /guide/. Only files under the guide's folder are reached (no `..`, no dot-files, no link out of it) and only the
 * types of GUIDE_FILE_TYPES; a folder's page is its README.md. Pages are rendered once and kept while the file is
 * unchanged (its modification time and size).
 */
export class UserGuide {
  private rootReal: Promise<string | null> | undefined;
  private readonly pages = new Map<string, { mtimeMs: number; size: number; html: string }>();

  constructor(readonly dir: string) {}

  /** What answers `relative`, the URL's path under /guide/ (decoded), e.g. `en/`, `en/tickets.md`, `images/en/01-login.png`. */
  async find(relative: string): Promise<GuideAnswer> {
    if (relative === STYLESHEET) return { kind: 'stylesheet', css: GUIDE_STYLESHEET };
    if (relative.includes('\\') || relative.includes('\0')) return { kind: 'missing' };
    const segments = relative.split('/');
    const last = segments.pop() ?? '';
    if (segments.some((s) => s === '' || s.startsWith('.')) || last.startsWith('.')) return { kind: 'missing' };
    const name = last === '' ? INDEX : last;
    const ext = path.extname(name).toLowerCase();
    const root = await this.root();
    if (!root) return { kind: 'missing' };
    const file = await this.inside(root, path.join(root, ...segments, name));
    if (!GUIDE_FILE_TYPES[ext]) {
      // `en` for `en/`: said again with the slash, the README's links are relative to the right folder.
      return ext === '' && file && (await stat(file)).isDirectory() ? { kind: 'folder' } : { kind: 'missing' };
    }
    const stats = file ? await stat(file) : undefined;
    if (!file || !stats?.isFile()) return { kind: 'missing' };
    if (ext !== '.md') return { kind: 'file', root, file: path.relative(root, file).split(path.sep).join('/'), type: GUIDE_FILE_TYPES[ext] };
    const cached = this.pages.get(file);
    if (cached?.mtimeMs === stats.mtimeMs && cached.size === stats.size) return { kind: 'page', html: cached.html };
    const html = await this.page(root, [...segments, name], await readFile(file, 'utf8'));
    this.pages.set(file, { mtimeMs: stats.mtimeMs, size: stats.size, html });
    return { kind: 'page', html };
  }

  /** The guide's folder with its links resolved, or null when it does not exist (every answer is then "missing"). */
  private root(): Promise<string | null> {
    this.rootReal ??= realpath(this.dir).then(
      (real) => real,
      () => null,
    );
    return this.rootReal;
  }

  /** `file` with its links resolved when it exists under `root`, else null. */
  private async inside(root: string, file: string): Promise<string | null> {
    const real = await realpath(file).catch(() => null);
    return real !== null && real.startsWith(root + path.sep) ? real : null;
  }

  /** The HTML page of a Markdown file at `segments` under the guide's folder. */
  private async page(root: string, segments: string[], markdown: string): Promise<string> {
    const { title, html } = renderMarkdown(markdown);
    const folders = segments.slice(0, -1);
    const up = '../'.repeat(folders.length);
    const lang: GuideLanguage = isLanguage(folders[0]) && folders.length === 1 ? folders[0] : 'en';
    const words = LANGUAGES[lang];
    const inLanguage = folders.length === 1 && isLanguage(folders[0]);
    const links: string[] = [];
    if (inLanguage) {
      links.push(`<a href="./">${escapeHtml(words.contents)}</a>`);
      for (const other of Object.keys(LANGUAGES) as GuideLanguage[]) {
        if (other === lang) continue;
        const target = await this.counterpart(root, lang, other, segments.at(-1) ?? INDEX);
        if (target === null) continue;
        const href = `../${other}/${target === INDEX ? '' : encodeURIComponent(target)}`;
        links.push(`<a href="${escapeHtml(href)}" hreflang="${other}" lang="${other}">${escapeHtml(LANGUAGES[other].name)}</a>`);
      }
    }
    links.push(`<a href="${up}../">${escapeHtml(words.desk)}</a>`);
    const heading = inLanguage ? `<a class="guide-name" href="./">${escapeHtml(words.guide)}</a>` : `<span class="guide-name">${escapeHtml(words.guide)}</span>`;
    return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title && title !== words.guide ? `${title} · ${words.guide}` : words.guide)}</title>
<link rel="stylesheet" href="${up}${STYLESHEET}">
</head>
<body>
<header class="guide-bar">${heading}<nav>${links.join('')}</nav></header>
<main class="guide-page">
${html}</main>
</body>
</html>
`;
  }

  /**
   * The page of language `to` that translates `page` of `from`: the README for the README, else the page at the same
   * place in the two READMEs' lists of pages (their contents); the other README when it has no counterpart. Null
   * when the guide has no `to` folder.
   */
  private async counterpart(root: string, from: GuideLanguage, to: GuideLanguage, page: string): Promise<string | null> {
    const [own, other] = await Promise.all([from, to].map((lang) => readFile(path.join(root, lang, INDEX), 'utf8').catch(() => null)));
    if (other === null || other === undefined) return null;
    if (page === INDEX || !own) return INDEX;
    const index = pagesListed(own).indexOf(page);
    return (index >= 0 ? pagesListed(other)[index] : undefined) ?? INDEX;
  }
}

/** The pages a README links to, in order, once each: `[First steps](first-steps.md)` → `first-steps.md`. */
function pagesListed(markdown: string): string[] {
  const pages = [...markdown.matchAll(/\]\(([^()\s/#]+\.md)(?:#[^()\s]*)?\)/g)].map((m) => m[1]!);
  return [...new Set(pages)];
}
