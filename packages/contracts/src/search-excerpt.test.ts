import { describe, expect, it } from 'vitest';
import { foldForSearch, searchExcerpt } from './search-excerpt.js';

const marked = (e: ReturnType<typeof searchExcerpt>) => (e ? `${e.text.slice(0, e.start)}[${e.text.slice(e.start, e.end)}]${e.text.slice(e.end)}` : null);

describe('search excerpt', () => {
  it('finds the match ignoring case and accents and marks the original text', () => {
    expect(marked(searchExcerpt('Fico em casa até Sábado!', 'sabado'))).toBe('Fico em casa até [Sábado]!');
    expect(marked(searchExcerpt('JOÃO', 'joao'))).toBe('[JOÃO]');
    expect(marked(searchExcerpt('Straße 5', 'strasse'))).toBe('[Straße] 5');
  });

  it('keeps a few words before the match and more after, cut at spaces, on one line', () => {
    const text = 'Recebi o pedido ontem, mas a caixa veio amassada.\nPodemos trocar? Fico em casa até sábado à tarde, depois viajo para o interior e só volto em março.';
    const e = searchExcerpt(text, 'sabado')!;
    expect(marked(e)).toBe('…em casa até [sábado] à tarde, depois viajo para o interior e só volto em março.');
    expect(marked(searchExcerpt(`${'palavra '.repeat(5)}sábado ${'depois '.repeat(20)}`, 'sabado'))).toBe(
      `…palavra [sábado] ${'depois '.repeat(8).trim()}…`,
    );
    expect(e.text).not.toContain('\n');
  });

  it('is null when the text does not contain the query', () => {
    expect(searchExcerpt('bom dia', 'noite')).toBeNull();
    expect(searchExcerpt('bom dia', '  ')).toBeNull();
    expect(foldForSearch('Ação É')).toBe('acao e');
  });

  it('folds ASCII, accented letters, spelled-out letters and other characters the same each time', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(foldForSearch('ÁGUA Ñandú İstanbul Æble 😀 PED-48213 [x]')).toBe('agua nandu istanbul aeble 😀 ped-48213 [x]');
    }
  });
});
