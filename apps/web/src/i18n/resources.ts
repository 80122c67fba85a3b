import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

export type Tree = { [key: string]: string | Tree };
type Lang = 'en' | 'pt' | 'es';

/**
 * The translation of each language: the shared files in ./locales plus each feature's own
 * `features/<name>/locales/<lang>.json`, merged (a feature file holds its own top-level keys, so
 * features never edit one another's texts).
 */
const featureFiles = import.meta.glob<{ default: Tree }>('../features/*/locales/*.json', { eager: true });

function merge(target: Tree, source: Tree, where: string): Tree {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value, `${where}.${key}`);
    else if (existing !== undefined) throw new Error(`duplicate translation key ${where}.${key}`);
    else target[key] = typeof value === 'object' ? merge({}, value, `${where}.${key}`) : value;
  }
  return target;
}

function build(lang: Lang, core: Tree): Tree {
  const tree = merge({}, core, lang);
  for (const [path, mod] of Object.entries(featureFiles)) {
    if (path.endsWith(`/locales/${lang}.json`)) merge(tree, mod.default, lang);
  }
  return tree;
}

export const translations: Record<Lang, Tree> = {
  en: build('en', en as Tree),
  pt: build('pt', pt as Tree),
  es: build('es', es as Tree),
};

/** Every feature locale file, for the parity test. */
export const featureLocaleFiles = Object.keys(featureFiles);
