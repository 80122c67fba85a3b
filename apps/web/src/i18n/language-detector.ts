import { isSafeLanguageCode, type LanguageDetectorModule } from 'i18next';

/** Where the chosen language is kept (i18next-browser-languagedetector's key, so earlier choices still count). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Web storage, or nothing where it is unavailable or refused (private modes, blocked storage). */
function storage(): Storage | undefined {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What i18next-browser-languagedetector did with `order: ['localStorage', 'navigator']` and
 * `caches: ['localStorage']`, in a few lines: the stored choice first, then the browser's languages in its order
 * of preference; i18next takes the first it supports (pt-BR → pt), else English. The language i18next settles on
 * (detected or chosen in the menu) is stored.
 */
export function createLanguageDetector(
  getStorage: () => Storage | undefined = storage,
  getNavigator: () => Pick<Navigator, 'languages' | 'language'> | undefined = () => (typeof navigator !== 'undefined' ? navigator : undefined),
): LanguageDetectorModule {
  return {
    type: 'languageDetector',
    detect: () => {
      const found: string[] = [];
      try {
        const stored = getStorage()?.getItem(LANGUAGE_STORAGE_KEY);
        if (stored) found.push(stored);
      } catch {
        // Storage refused: the browser's languages decide.
      }
      const nav = getNavigator();
      if (nav?.languages) found.push(...nav.languages);
      if (nav?.language) found.push(nav.language);
      // Nothing that could break out of <html lang="..."> (the detector's rule, i18next's own check).
      return found.filter((code) => isSafeLanguageCode(code));
    },
    cacheUserLanguage: (lng) => {
      if (lng === 'cimode') return;
      try {
        getStorage()?.setItem(LANGUAGE_STORAGE_KEY, lng);
      } catch {
        // Not stored: the browser's languages decide next time.
      }
    },
  };
}
