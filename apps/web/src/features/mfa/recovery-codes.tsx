import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../services/toast-error';

/** The recovery codes, shown this once: to copy or download and keep somewhere other than the phone. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const text = `${t('mfa.recovery.fileTitle')}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toastSuccess(t('mfa.recovery.copied'));
    } catch (err) {
      toastError(err);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'wadesk-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack spacing={2}>
      <Alert severity="warning">{t('mfa.recovery.text')}</Alert>
      <Box
        component="ol"
        data-testid="mfa-recovery-codes"
        aria-label={t('mfa.recovery.title')}
        sx={{
          m: 0,
          p: 2,
          pl: 5,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', sm: '1fr 1fr' },
          columnGap: 4,
          rowGap: 0.5,
          fontFamily: 'monospace',
          fontSize: '1rem',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {t('mfa.recovery.copy')}
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download}>
          {t('mfa.recovery.download')}
        </Button>
      </Stack>
    </Stack>
  );
}
