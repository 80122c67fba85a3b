import { isAdmin } from '@wadesk/contracts';
import Badge from '@mui/material/Badge';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { Fragment, memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { useToolAccess } from '../settings/use-tool-access';
import { NAV_ITEMS, visibleNavItems, type NavItem, type NavSection } from './nav-items';
import { useConnectionsAttention } from './use-connections-attention';
import { useServerFeatures } from './use-server-features';

const SECTIONS: { section: NavSection; titleKey?: string }[] = [
  { section: 'main' },
  { section: 'admin', titleKey: 'layout.sections.admin' },
  { section: 'tools', titleKey: 'layout.sections.tools' },
];

function isActive(item: NavItem, pathname: string): boolean {
  const path = pathname.toLowerCase();
  const target = item.path.toLowerCase();
  if (target === '/') return path === '/';
  return path === target || path.startsWith(`${target}/`);
}

/** The drawer's menu, with the page on screen selected. */
export function DrawerMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return <DrawerMenuItems selectedPath={activePath(pathname)} onNavigate={onNavigate} />;
}

/** The item of the page at `pathname` (/tickets/12 is Tickets'), or null. */
function activePath(pathname: string): string | null {
  return NAV_ITEMS.find((item) => isActive(item, pathname))?.path ?? null;
}

/** The items; memoized, so that moving within a page (one ticket to the next) does not render them again. */
const DrawerMenuItems = memo(function DrawerMenuItems({ selectedPath, onNavigate }: { selectedPath: string | null; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const attention = useConnectionsAttention();
  const { features } = useServerFeatures();
  const { tools } = useToolAccess();
  // Only pages that work and that this user may open; a section with none left has no heading either.
  const items = visibleNavItems({ admin: isAdmin(user), simulator: features.simulator, tools });
  const sections = SECTIONS.map((s) => ({ ...s, items: items.filter((item) => item.section === s.section) })).filter(
    (s) => s.items.length > 0,
  );

  return (
    <List component="nav" aria-label={t('layout.mainMenu')} data-testid="drawer" dense sx={{ py: 0 }}>
      {sections.map(({ section, titleKey, items: sectionItems }) => (
        <Fragment key={section}>
          {titleKey && (
            <>
              <Divider />
              <ListSubheader component="div" sx={{ lineHeight: '36px' }}>
                {t(titleKey)}
              </ListSubheader>
            </>
          )}
          {sectionItems.map((item) => {
            const label = t(item.titleKey);
            const showBadge = item.path === '/connections' && attention;
            return (
              <ListItemButton
                key={item.path}
                component={RouterLink}
                to={item.path}
                selected={item.path === selectedPath}
                onClick={onNavigate}
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  {showBadge ? (
                    <Badge badgeContent="!" color="error" data-testid="connections-badge">
                      {item.icon}
                    </Badge>
                  ) : (
                    item.icon
                  )}
                </ListItemIcon>
                <ListItemText primary={label} />
              </ListItemButton>
            );
          })}
        </Fragment>
      ))}
    </List>
  );
});
