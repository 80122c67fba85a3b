import { describe, expect, it } from 'vitest';
import { foldsText, formatWhatsApp, type FormatNode } from './whatsapp-format';

/** A compact picture of the nodes: *b*, _i_, ~s~, `m`, [text](href). */
function show(nodes: FormatNode[]): string {
  return nodes
    .map((n) => {
      switch (n.kind) {
        case 'text':
          return n.text;
        case 'link':
          return `[${n.text}](${n.href})`;
        case 'mono':
          return `\`${n.text}\``;
        case 'bold':
          return `<b>${show(n.children)}</b>`;
        case 'italic':
          return `<i>${show(n.children)}</i>`;
        case 'strike':
          return `<s>${show(n.children)}</s>`;
      }
    })
    .join('');
}

const f = (text: string) => show(formatWhatsApp(text));

describe('formatWhatsApp (issue 33 item 2)', () => {
  it('renders bold, italic, strike and mono', () => {
    expect(f('*bold* _italic_ ~strike~ ```mono```')).toBe('<b>bold</b> <i>italic</i> <s>strike</s> `mono`');
  });

  it('keeps marks that are not at word boundaries', () => {
    expect(f('2*3*4')).toBe('2*3*4');
    expect(f('my_file_name.pdf')).toBe('my_file_name.pdf');
    expect(f('a * b * c')).toBe('a * b * c');
    expect(f('*bold*text')).toBe('*bold*text');
    expect(f('snake_case_words and _this_')).toBe('snake_case_words and <i>this</i>');
  });

  it('keeps the underscores of a link and makes it clickable', () => {
    expect(f('see https://example.com/my_file_name.pdf now')).toBe('see [https://example.com/my_file_name.pdf](https://example.com/my_file_name.pdf) now');
    expect(f('www.example.com')).toBe('[www.example.com](http://www.example.com)');
    expect(f('mail ana@example.com')).toBe('mail [ana@example.com](mailto:ana@example.com)');
  });

  it('formats around a link and next to punctuation', () => {
    expect(f('*https://example.com/a_b*')).toBe('<b>[https://example.com/a_b](https://example.com/a_b)</b>');
    expect(f('(*hi*), ok!')).toBe('(<b>hi</b>), ok!');
    expect(f('*_both_*')).toBe('<b><i>both</i></b>');
  });

  it('does not format across lines, except mono', () => {
    expect(f('*one\ntwo*')).toBe('*one\ntwo*');
    expect(f('```a *b*\nc```')).toBe('`a *b*\nc`');
  });

  it('keeps unclosed and empty marks as typed', () => {
    expect(f('**')).toBe('**');
    expect(f('*open only')).toBe('*open only');
    expect(f('5 * 3 = 15 and *yes*')).toBe('5 * 3 = 15 and <b>yes</b>');
  });

  it('folds a 10,000-character text and not a short one', () => {
    expect(foldsText('x'.repeat(10_000))).toBe(true);
    expect(foldsText('a\n'.repeat(20))).toBe(true);
    expect(foldsText('hello')).toBe(false);
  });

  it('parses a 10,000-character text of marks quickly', () => {
    const started = performance.now();
    formatWhatsApp('*a _b '.repeat(1700));
    expect(performance.now() - started).toBeLessThan(500);
  });
});
