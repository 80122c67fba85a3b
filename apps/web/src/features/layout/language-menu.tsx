import IconButton from '@mui/material/IconButton';
import TranslateIcon from '@mui/icons-material/Translate';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// MUI's Menu (with Popover, Modal and the focus trap) is not needed until the menu opens: it loads on the first
// hover, focus or click of the button, so the login page's first load does without it (issue 11).
const loadMenuList = () => import('./language-menu-list');
const LanguageMenuList = lazy(loadMenuList);
const preloadMenuList = () => void loadMenuList().catch(() => undefined);

export function LanguageMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so that closing plays the menu's transition.
  const [opened, setOpened] = useState(false);
  return (
    <>
      {/* A native tooltip: MUI's (and its positioning engine) would weigh on the login page's first load. */}
      <IconButton
        color="inherit"
        title={t('layout.language')}
        aria-label={t('aria.language')}
        aria-haspopup="menu"
        onPointerEnter={preloadMenuList}
        onFocus={preloadMenuList}
        onClick={(e) => {
          setAnchor(e.currentTarget);
          setOpened(true);
        }}
      >
        <TranslateIcon />
      </IconButton>
      {opened && (
        <Suspense fallback={null}>
          <LanguageMenuList anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
