import { describe, expect, it } from 'vitest';
import { guideLink } from './guide-link';

describe('guideLink: the Help entry of the user menu (decision 0036)', () => {
  it('opens the guide the desk serves: Portuguese for Portuguese, English for English and Spanish', () => {
    expect(guideLink(null, 'pt')).toBe('/guide/pt/');
    expect(guideLink(null, 'pt-BR')).toBe('/guide/pt/');
    expect(guideLink(null, 'en')).toBe('/guide/en/');
    expect(guideLink(null, 'es')).toBe('/guide/en/');
    expect(guideLink(null, undefined)).toBe('/guide/en/');
  });

  const url = 'https://git.example.com/desk/blob/main/docs/guide/{lang}/README.md';

  it('opens the guide where GUIDE_URL says it is published instead, in the same language', () => {
    expect(guideLink(url, 'pt')).toBe('https://git.example.com/desk/blob/main/docs/guide/pt/README.md');
    expect(guideLink(url, 'pt-BR')).toBe('https://git.example.com/desk/blob/main/docs/guide/pt/README.md');
    expect(guideLink(url, 'en')).toBe('https://git.example.com/desk/blob/main/docs/guide/en/README.md');
    expect(guideLink(url, 'es')).toBe('https://git.example.com/desk/blob/main/docs/guide/en/README.md');
  });

  it('keeps an address without {lang} as it is', () => {
    expect(guideLink('https://help.example.com/desk', 'pt')).toBe('https://help.example.com/desk');
  });

  it('keeps the served guide when the address is empty or not http(s)', () => {
    expect(guideLink('', 'en')).toBe('/guide/en/');
    expect(guideLink('javascript:alert(1)//{lang}', 'pt')).toBe('/guide/pt/');
  });
});
