import { Marked, type Tokens } from 'marked';

/** Text for HTML: element content and double-quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A heading's anchor as GitHub writes it, so that the guide's links (`first-steps.md#connect-a-whatsapp-number`,
 * `primeiros-passos.md#conectar-um-número-de-whatsapp`) work here as on a forge: lower case, punctuation dropped
 * (letters of any script, digits, `-` and `_` kept), each space a hyphen.
 */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A link target as marked writes it: spaces and non-ASCII letters percent-encoded, escapes already there kept. */
function encodeUrl(href: string): string {
  try {
    return encodeURI(href).replace(/%25/g, '%');
  } catch {
    return href;
  }
}

export interface RenderedMarkdown {
  /** The text of the first level-1 heading, or null. */
  title: string | null;
  html: string;
}

/**
 * One Markdown page of the guide as HTML (GitHub-flavoured, as a forge shows it): headings carry GitHub's anchors
 * (a repeated one gets -1, -2…), and each picture links to itself at full size (the screenshots are wider than the
 * page). The guide is the repository's own text: its HTML, if any, is kept as written.
 */
export function renderMarkdown(source: string): RenderedMarkdown {
  const seen = new Map<string, number>();
  let title: string | null = null;
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const text = this.parser.parseInline(tokens, this.parser.textRenderer);
        if (depth === 1 && title === null) title = text;
        const base = headingSlug(text);
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        const id = count === 0 ? base : `${base}-${count}`;
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      image({ href, title: imageTitle, text, tokens }: Tokens.Image) {
        const alt = tokens ? this.parser.parseInline(tokens, this.parser.textRenderer) : text;
        const src = escapeHtml(encodeUrl(href));
        const titled = imageTitle ? ` title="${escapeHtml(imageTitle)}"` : '';
        return `<a class="picture" href="${src}"><img src="${src}" alt="${escapeHtml(alt)}"${titled} loading="lazy"></a>`;
      },
    },
  });
  const html = marked.parse(source, { async: false });
  return { title, html };
}
