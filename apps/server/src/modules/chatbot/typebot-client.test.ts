import { describe, expect, it } from 'vitest';
import { choiceMenu, richTextToWhatsapp } from './typebot-client.js';

describe("Typebot's rich text as WhatsApp text", () => {
  it('turns marks into WhatsApp formatting, keeping the spaces outside the marks', () => {
    expect(
      richTextToWhatsapp([
        { type: 'p', children: [{ text: 'Olá ' }, { text: 'Maria ', bold: true }, { text: 'tudo', italic: true }, { text: ' bem?' }] },
        { type: 'p', children: [{ text: 'antigo', strikethrough: true }, { text: ' e ' }, { text: 'negrito itálico', bold: true, italic: true }] },
      ]),
    ).toBe('Olá *Maria* _tudo_ bem?\n~antigo~ e _*negrito itálico*_');
  });

  it('writes links as "text (url)" (just the url when the text is the url) and keeps empty paragraphs as blank lines', () => {
    expect(
      richTextToWhatsapp([
        { type: 'p', children: [{ text: 'Veja ' }, { type: 'a', url: 'https://loja.example/x', children: [{ text: 'a loja' }] }] },
        { type: 'p', children: [{ text: '' }] },
        { type: 'p', children: [{ type: 'a', url: 'https://loja.example/y', children: [{ text: 'https://loja.example/y' }] }] },
      ]),
    ).toBe('Veja a loja (https://loja.example/x)\n\nhttps://loja.example/y');
  });

  it('numbers ordered lists and bullets the others', () => {
    expect(
      richTextToWhatsapp([
        { type: 'ol', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'um' }] }] }, { type: 'li', children: [{ type: 'lic', children: [{ text: 'dois' }] }] }] },
        { type: 'ul', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'item' }] }] }] },
      ]),
    ).toBe('1. um\n2. dois\n• item');
  });

  it('numbers the choices like the queue menu', () => {
    expect(choiceMenu(['Vendas', 'Suporte'])).toBe('*1* - Vendas\n*2* - Suporte');
  });
});
