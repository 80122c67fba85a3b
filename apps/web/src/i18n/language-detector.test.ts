import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { createLanguageDetector, LANGUAGE_STORAGE_KEY } from './language-detector';

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

/** i18next with the app's options (i18n/index.ts) and the detector, over the given storage and browser languages. */
async function start(storage: Storage | undefined, languages: string[]) {
  const i18n = createInstance();
  await i18n.use(createLanguageDetector(() => storage, () => ({ languages, language: languages[0] ?? '' }))).init({
    resources: { en: { translation: { hi: 'Hello' } }, pt: { translation: { hi: 'Olá' } }, es: { translation: { hi: 'Hola' } } },
    fallbackLng: 'en',
    supportedLngs: ['en', 'pt', 'es'],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
  });
  return i18n;
}

describe('language detector', () => {
  it('takes the browser language: pt-BR → pt, es-AR → es', async () => {
    expect((await start(memoryStorage(), ['pt-BR', 'en-US'])).t('hi')).toBe('Olá');
    expect((await start(memoryStorage(), ['es-AR'])).t('hi')).toBe('Hola');
  });

  it('takes the first supported of the browser languages, else English', async () => {
    expect((await start(memoryStorage(), ['fr-FR', 'es-ES', 'pt-BR'])).t('hi')).toBe('Hola');
    expect((await start(memoryStorage(), ['fr-FR', 'de'])).resolvedLanguage).toBe('en');
    expect((await start(memoryStorage(), [])).resolvedLanguage).toBe('en');
  });

  it('a stored choice wins over the browser languages', async () => {
    const i18n = await start(memoryStorage({ [LANGUAGE_STORAGE_KEY]: 'es' }), ['pt-BR']);
    expect(i18n.t('hi')).toBe('Hola');
  });

  it('stores the language detected, then the one chosen', async () => {
    const storage = memoryStorage();
    const i18n = await start(storage, ['pt-BR']);
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)?.slice(0, 2)).toBe('pt');
    await i18n.changeLanguage('es');
    expect(storage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
    expect((await start(storage, ['pt-BR'])).t('hi')).toBe('Hola');
  });

  it('ignores a stored value that is not a language code, and works without storage', async () => {
    expect((await start(memoryStorage({ [LANGUAGE_STORAGE_KEY]: '" onmouseover="x()' }), ['pt-BR'])).t('hi')).toBe('Olá');
    expect((await start(undefined, ['es'])).t('hi')).toBe('Hola');
    const refusing = memoryStorage();
    refusing.getItem = () => {
      throw new Error('SecurityError');
    };
    refusing.setItem = () => {
      throw new Error('SecurityError');
    };
    expect((await start(refusing, ['pt'])).t('hi')).toBe('Olá');
  });
});
