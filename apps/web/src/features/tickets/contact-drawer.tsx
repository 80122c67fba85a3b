import type { ContactDto } from '@wadesk/contracts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

export const CONTACT_DRAWER_WIDTH = 320;

/** The contact drawer (§2): avatar, name, number as a tel: link, edit, extra info. */
export function ContactDrawer({ contact, open, onClose }: { contact: ContactDto; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer anchor="right" open={open} onClose={onClose} sx={{ zIndex: (theme) => theme.zIndex.appBar + 2, '& .MuiDrawer-paper': { width: { xs: '100%', sm: CONTACT_DRAWER_WIDTH } } }}>
      <Toolbar variant="dense" sx={{ borderBottom: 1, borderColor: 'divider', gap: 1 }}>
        <IconButton edge="start" aria-label={t('tickets.contact.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
        <Typography variant="subtitle1">{t('tickets.contact.title')}</Typography>
      </Toolbar>
      <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }} data-testid="contact-drawer">
        <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 120, height: 120, fontSize: 48 }}>
          {contact.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Typography variant="h6" sx={{ textAlign: 'center', wordBreak: 'break-word' }}>
          {contact.name}
        </Typography>
        <Link href={`tel:+${contact.number}`}>{contact.number}</Link>
        {contact.email && (
          <Link href={`mailto:${contact.email}`} variant="body2">
            {contact.email}
          </Link>
        )}
        <Button variant="outlined" startIcon={<EditIcon />} component={RouterLink} to={`/contacts?edit=${contact.id}`}>
          {t('tickets.contact.edit')}
        </Button>
      </Box>
      <Box sx={{ px: 2, pb: 2 }}>
        <Typography variant="subtitle2" gutterBottom>
          {t('tickets.contact.extraInfo')}
        </Typography>
        {contact.extraInfo.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('tickets.contact.noExtraInfo')}
          </Typography>
        )}
        {contact.extraInfo.map((info) => (
          <Paper key={info.id} variant="outlined" sx={{ p: 1, mb: 1 }}>
            <Typography variant="caption" color="text.secondary">
              {info.name}
            </Typography>
            <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
              {info.value}
            </Typography>
          </Paper>
        ))}
      </Box>
    </Drawer>
  );
}
