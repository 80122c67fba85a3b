import ConstructionIcon from '@mui/icons-material/Construction';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/** A page of §2 that is not built yet. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Page title={t(titleKey)}>
      <EmptyState
        icon={<ConstructionIcon fontSize="large" />}
        title={t('comingSoon.title')}
        text={t('comingSoon.text')}
        testId="coming-soon"
      />
    </Page>
  );
}
