import { ERROR_CODES, SETTING_KEYS, SETTING_DEFINITIONS, SETTING_MESSAGES } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import en from './translation-en';
import es from './translation-es';
import pt from './translation-pt';
import type { Tree } from './translation-tree';


function flatten(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : flatten(value, `${prefix}${key}.`),
  );
}

const locales: Record<string, string[]> = {
  en: flatten(en),
  pt: flatten(pt),
  es: flatten(es),
};
const allKeys = [...new Set(Object.values(locales).flat())].sort();

describe('locales', () => {
  it.each(Object.keys(locales))('%s has every key of the other locales', (lng) => {
    const own = new Set(locales[lng]);
    const missing = allKeys.filter((k) => !own.has(k));
    expect(missing, `keys missing in ${lng}.json`).toEqual([]);
  });

  it.each(Object.keys(locales))('%s has no empty texts', (lng) => {
    const tree = { en, pt, es }[lng] as Tree;
    const empty = locales[lng].filter((key) => {
      const value = key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
      return typeof value !== 'string' || value.trim() === '';
    });
    expect(empty, `empty texts in ${lng}.json`).toEqual([]);
  });

  it.each(Object.keys(locales))('%s has a sentence for every code of the error catalogue', (lng) => {
    const errors = ({ en, pt, es }[lng] as Tree).errors as Tree;
    const missing = ERROR_CODES.filter((code) => typeof errors[code] !== 'string' || (errors[code] as string).includes('ERR_'));
    expect(missing, `error codes without an errors.<CODE> sentence in ${lng}`).toEqual([]);
  });

  it('translates every check of the settings page (issue 33 item 13)', () => {
    const missing = Object.keys(SETTING_MESSAGES).map((key) => `validation.settings.${key}`).filter((key) => !locales.en.includes(key));
    expect(missing).toEqual([]);
  });

  it('names every setting and every option of the settings page', () => {
    const wanted = SETTING_KEYS.flatMap((key) => {
      const def = SETTING_DEFINITIONS[key];
      const options: readonly string[] = 'options' in def ? def.options : [];
      return [
        `settings.keys.${key}`,
        ...options.map((o) => (key === 'timeCreateNewTicket' ? `settings.durations.${o}` : `settings.options.${o}`)),
      ];
    });
    expect(wanted.filter((key) => !locales.en.includes(key))).toEqual([]);
  });

  it('keeps the specification\'s English texts', () => {
    const tree = en as Tree;
    const get = (path: string) =>
      path.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
    expect(get('errors.generic')).toBe('An error occurred!');
    expect(get('errors.ERR_NO_PERMISSION')).toBe("You don't have permission to access this resource.");
    expect(get('errors.ERR_INVALID_CREDENTIALS')).toBe('Authentication error. Please try again.');
    expect(get('errors.ERR_SESSION_EXPIRED')).toBe('Session expired. Please login.');
    expect(get('validation.tooShort')).toBe('Too Short!');
    expect(get('validation.tooLong')).toBe('Too Long!');
    expect(get('validation.required')).toBe('Required');
    expect(get('validation.invalidEmail')).toBe('Invalid email');
  });
});
