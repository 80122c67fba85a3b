import Box from '@mui/material/Box';
import { Picker } from 'emoji-picker-element';
import en from 'emoji-picker-element/i18n/en';
import es from 'emoji-picker-element/i18n/es';
import pt from 'emoji-picker-element/i18n/pt_BR';
import enData from 'emoji-picker-element-data/en/emojibase/data.json?url';
import esData from 'emoji-picker-element-data/es/cldr/data.json?url';
import ptData from 'emoji-picker-element-data/pt/cldr/data.json?url';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import 'twemoji-colr-font/twemoji.css';

/** The picker's words and emoji names per UI language; the data is a file of our own origin (no CDN). */
const LANGUAGES = {
  en: { i18n: en, dataSource: enData },
  pt: { i18n: pt, dataSource: ptData },
  es: { i18n: es, dataSource: esData },
} as const;

/** The newest emoji version the bundled Twemoji font draws: every emoji up to it shows, whatever the OS's font. */
const EMOJI_VERSION = 15;

/**
 * The emoji picker (issue 33 item 7): emoji-picker-element, searchable, by category, with the emoji used most
 * (kept in the browser's IndexedDB, per language) first. Drawn with Twemoji's COLR font (twemoji-colr-font, one 470 KB
 * woff2 served by our own origin; graphics CC-BY 4.0 by Twitter), so it looks the same on machines without a colour
 * emoji font. A COLR v0 font: Noto Color Emoji's web font is COLR v1, which some Chromium builds (Debian's) draw blank.
 * Loaded (with the font and the data) only when first opened.
 */
export default function EmojiPanel({ onPick }: { onPick: (emoji: string) => void }) {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? i18n.language).slice(0, 2);
  const { i18n: words, dataSource } = LANGUAGES[language as keyof typeof LANGUAGES] ?? LANGUAGES.en;
  const host = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const picker = new Picker({ locale: language, dataSource, i18n: words, emojiVersion: EMOJI_VERSION });
    picker.style.setProperty('--emoji-font-family', 'Twemoji');
    picker.style.setProperty('--num-columns', '8');
    picker.style.setProperty('width', '100%');
    picker.addEventListener('emoji-click', (e) => {
      if (e.detail.unicode) pick.current(e.detail.unicode);
    });
    host.current?.appendChild(picker);
    return () => picker.remove();
  }, [language, dataSource, words]);

  return <Box ref={host} sx={{ width: { xs: 'calc(100vw - 32px)', sm: 360 }, maxWidth: 360, height: 400, display: 'flex' }} data-testid="emoji-panel" />;
}
