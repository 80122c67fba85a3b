import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import SecurityIcon from '@mui/icons-material/Security';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context';
import { TwoFactorDialog } from '../mfa/two-factor-dialog';
import { UserModal } from '../users/user-modal';
import { guideLink } from './guide-link';
import { useServerFeatures } from './use-server-features';

export function UserMenu() {
  const { t, i18n } = useTranslation();
  const { user, logout } = useAuth();
  const { features } = useServerFeatures();
  // The user guide in the interface's language: the one the desk serves at /guide/, or GUIDE_URL's (decision 0036).
  const guide = guideLink(features.guideUrl, i18n.resolvedLanguage ?? i18n.language);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  return (
    <>
      <IconButton color="inherit" aria-label={t('aria.userMenu')} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        <AccountCircle />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {user && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }} component="div">
            {user.name}
          </Typography>
        )}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
        >
          <ListItemIcon>
            <PersonIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('layout.profile')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setTwoFactorOpen(true);
          }}
          data-testid="menu-two-factor"
        >
          <ListItemIcon>
            <SecurityIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('mfa.title')}</ListItemText>
        </MenuItem>
        <MenuItem component="a" href={guide} target="_blank" rel="noopener noreferrer" onClick={() => setAnchor(null)}>
          <ListItemIcon>
            <HelpOutlineIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('layout.help')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('layout.logout')}</ListItemText>
        </MenuItem>
      </Menu>
      {user && twoFactorOpen && <TwoFactorDialog onClose={() => setTwoFactorOpen(false)} />}
      {user && profileOpen && (
        <UserModal open onClose={() => setProfileOpen(false)} userId={user.id} ownProfile />
      )}
    </>
  );
}
