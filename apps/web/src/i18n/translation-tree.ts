export type Tree = { [key: string]: string | Tree };

function merge(target: Tree, source: Tree, where: string): Tree {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === 'object' && typeof existing === 'object') merge(existing, value, `${where}.${key}`);
    else if (existing !== undefined) throw new Error(`duplicate translation key ${where}.${key}`);
    else target[key] = typeof value === 'object' ? merge({}, value, `${where}.${key}`) : value;
  }
  return target;
}

/**
 * The translation of one language: the shared file in ./locales plus each feature's own
 * `features/<name>/locales/<lang>.json`, merged (a feature file holds its own top-level keys, so
 * features never edit one another's texts).
 */
export function buildTranslation(lang: string, core: Tree, featureFiles: Record<string, { default: Tree }>): Tree {
  const tree = merge({}, core, lang);
  for (const mod of Object.values(featureFiles)) merge(tree, mod.default, lang);
  return tree;
}
