import { createInstance, type TFunction } from 'i18next';
import en from './translation-en';
import es from './translation-es';
import pt from './translation-pt';

/** The app's translations as one `t` per language, for unit tests of code that words things (pt, en, es). */
export async function translators(): Promise<Record<'en' | 'pt' | 'es', TFunction>> {
  const entries = await Promise.all(
    Object.entries({ en, pt, es }).map(async ([lng, translation]) => {
      const i18n = createInstance();
      await i18n.init({ lng, resources: { [lng]: { translation } }, interpolation: { escapeValue: false } });
      return [lng, i18n.t] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<'en' | 'pt' | 'es', TFunction>;
}
