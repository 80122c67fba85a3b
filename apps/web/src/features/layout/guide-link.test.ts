import { describe, expect, it } from 'vitest';
import { guideLink } from './guide-link';

describe('guideLink: the Help entry of the user menu (decision 0036)', () => {
  const url = 'https://git.example.com/desk/blob/main/docs/guide/{lang}/README.md';

  it('opens the Portuguese guide for Portuguese and the English one for English and Spanish', () => {
    expect(guideLink(url, 'pt')).toBe('https://git.example.com/desk/blob/main/docs/guide/pt/README.md');
    expect(guideLink(url, 'pt-BR')).toBe('https://git.example.com/desk/blob/main/docs/guide/pt/README.md');
    expect(guideLink(url, 'en')).toBe('https://git.example.com/desk/blob/main/docs/guide/en/README.md');
    expect(guideLink(url, 'es')).toBe('https://git.example.com/desk/blob/main/docs/guide/en/README.md');
  });

  it('keeps an address without {lang} as it is', () => {
    expect(guideLink('https://help.example.com/desk', 'pt')).toBe('https://help.example.com/desk');
  });

  it('offers nothing without an address, or with one that is not http(s)', () => {
    expect(guideLink(null, 'en')).toBeNull();
    expect(guideLink('', 'en')).toBeNull();
    expect(guideLink('javascript:alert(1)//{lang}', 'en')).toBeNull();
  });
});
