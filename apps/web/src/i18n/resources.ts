import en from './translation-en';
import type { Tree } from './translation-tree';

export type { Tree };

/** English is in the first load (it is the fallback too); Portuguese and Spanish load when chosen, a chunk each. */
export const bundledTranslations = { en };

export async function loadTranslation(lang: string): Promise<Tree> {
  if (lang === 'pt') return (await import('./translation-pt')).default;
  if (lang === 'es') return (await import('./translation-es')).default;
  return en;
}
