import { SETTING_DEFINITIONS, validateSettingValue, type SettingKey } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { translateValidation } from '../../i18n/validation-message';
import { connection } from '../../services/connection-state';
import { errorMessage, toastError, toastSuccess } from '../../services/toast-error';
import { EmailTestSection } from '../email/email-test';
import { OptionSettingField, TextSettingField, ToolsSettingField } from './setting-fields';
import { regenerateApiToken, saveSetting, useApplySetting, useSettings, useSettingsLiveUpdates } from './settings-api';

const GROUPS: { id: string; keys: SettingKey[] }[] = [
  { id: 'general', keys: ['userCreation', 'groups', 'CheckMsgIsGroup', 'acceptCalls', 'callRejectMessage', 'timeCreateNewTicket'] },
  { id: 'attendants', keys: ['attendantTools'] },
  { id: 'security', keys: ['mfaRequiredForAdmins', 'auditRetentionDays'] },
  { id: 'notices', keys: ['transferMessage', 'protocolMessage'] },
  { id: 'csat', keys: ['csatEnabled', 'csatMessage'] },
  { id: 'typebot', keys: ['typebot', 'typebotUrl', 'typebotName', 'typebotRestart', 'typebotOff', 'typebotTime'] },
  { id: 'email', keys: ['emailHost', 'emailPort', 'emailSecure', 'emailUser', 'emailPass', 'emailFrom', 'emailTo'] },
  { id: 'vonage', keys: ['vonageApiKey', 'vonageApiSecret', 'vonageApiId', 'vonagePrivateKey'] },
  { id: 'instagram', keys: ['instagramAccountId', 'instagramAccessToken', 'instagramAppSecret', 'instagramVerifyToken'] },
];

function ApiTokenField({ value, onRegenerated }: { value: string; onRegenerated: () => void }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const applySetting = useApplySetting();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.info(t('settings.apiToken.copied'), { autoClose: 3000 });
    } catch (err) {
      toastError(err);
    }
  };

  const regenerate = async () => {
    setBusy(true);
    try {
      applySetting(await regenerateApiToken());
      setConfirming(false);
      onRegenerated();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <TextField
        label={t('settings.keys.userApiToken')}
        value={value}
        size="small"
        fullWidth
        slotProps={{
          input: {
            readOnly: true,
            sx: { fontFamily: 'monospace' },
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('settings.apiToken.copy')}>
                  <span>
                    <IconButton
                      size="small"
                      edge="end"
                      aria-label={t('settings.apiToken.copy')}
                      disabled={!value}
                      onClick={() => void copy()}
                    >
                      <ContentCopyIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Button
        variant="outlined"
        color="warning"
        startIcon={<AutorenewIcon />}
        onClick={() => setConfirming(true)}
        sx={{ flexShrink: 0 }}
      >
        {t('settings.apiToken.regenerate')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('settings.apiToken.confirmTitle')}
        text={t('settings.apiToken.confirmText')}
        confirmLabel={t('settings.apiToken.regenerate')}
        busy={busy}
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const { data: settings, isLoading } = useSettings();
  const applySetting = useApplySetting();
  useSettingsLiveUpdates();

  const valueOf = (key: SettingKey) => settings?.find((s) => s.key === key)?.value ?? SETTING_DEFINITIONS[key].default;

  /** Saves one setting; a refusal is said under the field (its value stays as typed), never in a toast alone. */
  const save = async (key: SettingKey, value: string): Promise<string | null> => {
    const problem = validateSettingValue(key, value);
    if (problem) return translateValidation(t, problem) ?? problem;
    try {
      applySetting(await saveSetting(key, value));
      toastSuccess(t('settings.saved'));
      // §8: an alert says what turning groups on or off does.
      if (key === 'groups') toast.info(t(value === 'enabled' ? 'settings.groupsAlert.on' : 'settings.groupsAlert.off'), { autoClose: 6000 });
      return null;
    } catch (err) {
      connection.reportRequestFailure(err);
      const shown = errorMessage(err);
      return shown.fields?.value ?? shown.text;
    }
  };

  const field = (key: SettingKey) => {
    const kind = SETTING_DEFINITIONS[key].kind;
    const props = { settingKey: key, value: valueOf(key), onSave: (v: string) => save(key, v) };
    if (kind === 'option') return <OptionSettingField key={key} {...props} />;
    if (key === 'attendantTools') return <ToolsSettingField key={key} {...props} />;
    return <TextSettingField key={key} {...props} secret={kind === 'secret'} />;
  };

  return (
    <Page title={t('pages.settings')}>
      {isLoading ? (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Box>
      ) : (
        <Stack spacing={2} data-testid="settings">
          {GROUPS.map((group) => (
            <Paper key={group.id} variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby={`settings-${group.id}`}>
              <Typography id={`settings-${group.id}`} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
                {t(`settings.groups.${group.id}`)}
              </Typography>
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
                {group.keys.map(field)}
              </Box>
              {group.id === 'email' && <EmailTestSection />}
            </Paper>
          ))}
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="settings-api">
            <Typography id="settings-api" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
              {t('settings.groups.api')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('settings.apiToken.help')}
            </Typography>
            <ApiTokenField value={valueOf('userApiToken')} onRegenerated={() => toastSuccess(t('settings.saved'))} />
          </Paper>
        </Stack>
      )}
    </Page>
  );
}
