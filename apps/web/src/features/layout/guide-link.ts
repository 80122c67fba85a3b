/** The languages the user guide is written in (docs/guide/en, docs/guide/pt); English for the others. */
export type GuideLanguage = 'en' | 'pt';

/**
 * The guide's address for an interface language: GUIDE_URL with `{lang}` replaced by `pt` for Portuguese and `en`
 * otherwise; null when the server has no guide address, or when it is not http(s) (decision 0036).
 */
export function guideLink(guideUrl: string | null, language: string | undefined): string | null {
  if (!guideUrl) return null;
  const lang: GuideLanguage = (language ?? '').slice(0, 2) === 'pt' ? 'pt' : 'en';
  const href = guideUrl.replaceAll('{lang}', lang);
  try {
    const { protocol } = new URL(href);
    return protocol === 'http:' || protocol === 'https:' ? href : null;
  } catch {
    return null;
  }
}
