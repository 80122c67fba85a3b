/** The languages the user guide is written in (docs/guide/en, docs/guide/pt); English for the others. */
export type GuideLanguage = 'en' | 'pt';

/**
 * The user guide's address for an interface language (Portuguese: `pt`, the others: `en`): the guide this desk serves,
 * `/guide/pt/` or `/guide/en/`; or, when the server says it is published elsewhere (GUIDE_URL), that address with
 * `{lang}` replaced, if it is http(s) (decision 0036).
 */
export function guideLink(guideUrl: string | null, language: string | undefined): string {
  const lang: GuideLanguage = (language ?? '').slice(0, 2) === 'pt' ? 'pt' : 'en';
  const published = guideUrl?.replaceAll('{lang}', lang);
  return published && isHttp(published) ? published : `/guide/${lang}/`;
}

function isHttp(href: string): boolean {
  try {
    const { protocol } = new URL(href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
