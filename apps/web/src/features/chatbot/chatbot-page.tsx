import { isAdmin } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { Page } from '../../components/page';
import { useAuth } from '../auth/auth-context';
import { useSettings, useSettingsLiveUpdates } from '../settings/settings-api';
import { chatbotPageUrl } from './chatbot-url';

/** /ZDGChatbot: the configured chatbot's page in a frame; an explanation when none is configured. */
export function ChatbotPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data: settings, isLoading, isError, refetch } = useSettings();
  useSettingsLiveUpdates();
  const url = chatbotPageUrl(settings);
  const on = settings?.find((s) => s.key === 'typebot')?.value === 'enabled';
  const admin = user ? isAdmin(user) : false;

  return (
    <Page
      title={t('pages.chatbot')}
      actions={
        url ? (
          <Button href={url} target="_blank" rel="noopener noreferrer" startIcon={<OpenInNewIcon />} variant="outlined" size="small">
            {t('chatbot.open')}
          </Button>
        ) : undefined
      }
    >
      {isLoading ? (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Box>
      ) : isError ? (
        <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => void refetch()}>{t('chatbot.retry')}</Button>}>
          {t('chatbot.loadError')}
        </Alert>
      ) : !url ? (
        <Alert severity="info" data-testid="chatbot-not-configured">
          {t('chatbot.notConfigured')}{' '}
          {admin ? (
            <Button component={RouterLink} to="/settings" size="small" sx={{ ml: 1 }}>
              {t('chatbot.goToSettings')}
            </Button>
          ) : (
            t('chatbot.askAdmin')
          )}
        </Alert>
      ) : (
        <>
          <Alert severity={on ? 'success' : 'warning'} sx={{ mb: 2 }} data-testid="chatbot-state">
            {on ? t('chatbot.on') : t('chatbot.off')}
          </Alert>
          <Paper variant="outlined" sx={{ overflow: 'hidden', height: { xs: 'calc(100vh - 260px)', sm: 'calc(100vh - 240px)' }, minHeight: 360 }}>
            <Box
              component="iframe"
              src={url}
              title={t('chatbot.frameTitle')}
              data-testid="chatbot-frame"
              sx={{ border: 0, width: '100%', height: '100%', display: 'block' }}
            />
          </Paper>
        </>
      )}
    </Page>
  );
}
