import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context';
import { UNREAD_PARAMS } from '../notifications/use-unread-tickets';
import { useTicketsList } from '../tickets/tickets-api';

/** The browser tab says how many tickets have unread messages: "(3) WaDesk" (the bell's list, kept live). */
export function useUnreadTitle(): void {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data } = useTicketsList(UNREAD_PARAMS, !!user);
  const count = data?.pages[0]?.count ?? 0;
  const name = t('app.name');
  useEffect(() => {
    document.title = count > 0 ? `(${count > 99 ? '99+' : count}) ${name}` : name;
  }, [count, name]);
  useEffect(
    () => () => {
      document.title = name;
    },
    [name],
  );
}
