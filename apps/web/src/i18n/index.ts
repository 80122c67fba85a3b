import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createLanguageDetector } from './language-detector';
import { bundledTranslations, loadTranslation } from './resources';

export { LANGUAGE_STORAGE_KEY } from './language-detector';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'pt', label: 'Português' },
  { code: 'es', label: 'Español' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** Loads the languages not in the first load (see resources.ts) when they are detected or chosen. */
const lazyTranslations: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    loadTranslation(language).then(
      (tree) => callback(null, tree),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

/** Settles once the detected language's texts are loaded: render after it (main.tsx). */
export const languageReady: Promise<unknown> = i18n
  .use(lazyTranslations)
  // The stored choice, else the browser's languages (language-detector.ts).
  .use(createLanguageDetector())
  .use(initReactI18next)
  .init({
    resources: { en: { translation: bundledTranslations.en } },
    // English comes with the app; other languages through the backend above.
    partialBundledLanguages: true,
    fallbackLng: 'en',
    supportedLngs: LANGUAGES.map((l) => l.code),
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    interpolation: { escapeValue: false },
  });

/**
 * Zero is plural in our Portuguese: "0 grupos", "0 mensagens" (issue 33 item 17). Brazil's plural rule (CLDR)
 * counts 0 with 1, which reads "0 grupo": i18next's rule for pt is that one, but for 0.
 */
function zeroIsPluralInPortuguese(): void {
  const resolver = i18n.services.pluralResolver as { getRule: (code: string, options?: { ordinal?: boolean }) => Intl.PluralRules | undefined };
  const getRule = resolver.getRule.bind(resolver);
  resolver.getRule = (code, options = {}) => {
    const rule = getRule(code, options);
    if (!rule || options.ordinal || code.slice(0, 2) !== 'pt') return rule;
    return { select: (count: number) => (count === 0 ? 'other' : rule.select(count)), resolvedOptions: () => rule.resolvedOptions() } as Intl.PluralRules;
  };
}
zeroIsPluralInPortuguese();

/** The BCP 47 tag of a language for the page's `lang` attribute (Portuguese here is Brazil's). */
export function htmlLang(lng: string | undefined): string {
  const code = (lng ?? 'en').slice(0, 2);
  if (code === 'pt') return 'pt-BR';
  return code === 'es' ? 'es' : 'en';
}

function applyHtmlLang(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(i18n.resolvedLanguage ?? i18n.language);
}

i18n.on('languageChanged', applyHtmlLang);
// The detected language may be set before the listener above exists.
applyHtmlLang();

/** The current interface language, reduced to one of ours. */
export function currentLanguage(): LanguageCode {
  const lng = (i18n.resolvedLanguage ?? i18n.language ?? 'en').slice(0, 2);
  return LANGUAGES.some((l) => l.code === lng) ? (lng as LanguageCode) : 'en';
}

export default i18n;
