import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The languages the user guide is written in (docs/guide/en, docs/guide/pt). */
export type GuideLanguage = 'en' | 'pt';

type Tree = { [key: string]: string | Tree };

const web = path.resolve(import.meta.dirname, '../../apps/web/src');

function merge(target: Tree, source: Tree): Tree {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value);
    else target[key] = typeof value === 'object' ? merge({}, value) : value;
  }
  return target;
}

/** The app's own words in one language (i18n/locales plus every feature's locales), as the web app merges them. */
export function wordsOf(lang: GuideLanguage): (key: string, values?: Record<string, string | number>) => string {
  const tree = merge({}, JSON.parse(readFileSync(path.join(web, 'i18n/locales', `${lang}.json`), 'utf8')) as Tree);
  for (const feature of readdirSync(path.join(web, 'features'))) {
    try {
      merge(tree, JSON.parse(readFileSync(path.join(web, 'features', feature, 'locales', `${lang}.json`), 'utf8')) as Tree);
    } catch {
      // A feature without texts of its own.
    }
  }
  return (key, values = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no ${lang} text for ${key}`);
    return node.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name] ?? `{{${name}}}`));
  };
}
