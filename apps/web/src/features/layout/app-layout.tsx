import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import MenuIcon from '@mui/icons-material/Menu';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { memo, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { DRAWER_WIDTH } from '../../app/theme';
import { useSettingsLiveUpdates } from '../settings/settings-api';
import { DrawerMenu } from './drawer-menu';
import { LanguageMenu } from './language-menu';
import { NotificationsBell } from './notifications-bell';
import { useWhatsappsLiveUpdates } from './use-connections-attention';
import { useUnreadTitle } from './use-unread-title';
import { UserMenu } from './user-menu';

export const SMALL_SCREEN_QUERY = '(max-width:599.95px)';

/**
 * The app bar, the drawer and the page. Memoized: a change of address renders the page (its Outlet) and the
 * drawer's selection again, not the whole frame (issue 11: opening a ticket rendered the bar and the menus again).
 */
export const AppLayout = memo(function AppLayout() {
  const { t } = useTranslation();
  const small = useMediaQuery(SMALL_SCREEN_QUERY, { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const closeMobileDrawer = useCallback(() => setMobileOpen(false), []);
  useUnreadTitle();
  // Connections stay live on every screen, on phones too (where the drawer is closed).
  useWhatsappsLiveUpdates();
  // So do the settings: attendantTools decides the drawer, the tools' buttons and pages (issue 32).
  useSettingsLiveUpdates();

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ zIndex: (theme) => (small ? theme.zIndex.appBar : theme.zIndex.drawer + 1) }}>
        <Toolbar variant="dense" sx={{ gap: 0.5 }}>
          {small && (
            <IconButton color="inherit" edge="start" aria-label={t('aria.openDrawer')} onClick={() => setMobileOpen(true)}>
              <MenuIcon />
            </IconButton>
          )}
          <WhatsAppIcon sx={{ mr: 1, display: { xs: 'none', sm: 'block' } }} />
          <Typography variant="h6" component="div" noWrap sx={{ flexGrow: 1 }}>
            {t('app.name')}
          </Typography>
          <NotificationsBell />
          <LanguageMenu />
          <UserMenu />
        </Toolbar>
      </AppBar>
      {small ? (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          <Toolbar variant="dense" sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', gap: 1 }}>
            <WhatsAppIcon />
            <Typography variant="h6" component="div" noWrap>
              {t('app.name')}
            </Typography>
          </Toolbar>
          <DrawerMenu onNavigate={closeMobileDrawer} />
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          sx={{ width: DRAWER_WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
        >
          <Toolbar variant="dense" />
          <DrawerMenu />
        </Drawer>
      )}
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
        <Toolbar variant="dense" />
        <Outlet />
      </Box>
    </Box>
  );
});
