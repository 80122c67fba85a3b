import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from '../layout/language-menu';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        background: 'linear-gradient(180deg, #00a884 0, #00a884 220px, #f0f2f5 220px)',
        position: 'relative',
      }}
    >
      <Box sx={{ position: 'absolute', top: 8, right: 8, color: 'common.white' }}>
        <LanguageMenu />
      </Box>
      <Paper component="main" elevation={3} sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 2 }}>
          <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56, mb: 1 }}>
            <WhatsAppIcon fontSize="large" />
          </Avatar>
          <Typography variant="overline" color="text.secondary">
            {t('app.name')}
          </Typography>
          <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
        </Box>
        {children}
      </Paper>
    </Box>
  );
}
