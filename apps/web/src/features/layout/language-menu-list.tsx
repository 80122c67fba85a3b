import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES } from '../../i18n';

/** The language menu's popup (its own chunk: see language-menu.tsx). */
export default function LanguageMenuList({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  const { i18n } = useTranslation();
  const active = currentLanguage();
  return (
    <Menu anchorEl={anchor} open={!!anchor} onClose={onClose}>
      {LANGUAGES.map((lang) => (
        <MenuItem
          key={lang.code}
          selected={lang.code === active}
          lang={lang.code}
          onClick={() => {
            onClose();
            void i18n.changeLanguage(lang.code);
          }}
        >
          <ListItemText>{lang.label}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}
