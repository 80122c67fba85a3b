import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { ShownError } from '../services/toast-error';

/** A failed call's text, with a link to Settings when that is where to fix it (issue 33 item 13). */
export function ErrorText({ error }: { error: ShownError }) {
  const { t } = useTranslation();
  return (
    <>
      {error.text}
      {error.settings && (
        <>
          {' '}
          <Link component={RouterLink} to="/settings" color="inherit" sx={{ fontWeight: 600 }} data-testid="error-settings-link">
            {t('errors.openSettings')}
          </Link>
        </>
      )}
    </>
  );
}
