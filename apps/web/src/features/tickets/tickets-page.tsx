import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { ChatView } from '../chat/chat-view';
import { SMALL_SCREEN_QUERY } from '../layout/app-layout';
import { PANEL_BESIDE_LIST_QUERY, SIDE_PANEL_QUERY } from './contact-drawer';
import { readFollow } from './follow-ticket';
import { TicketsManager, type FollowRequest } from './tickets-manager';
import { useOpenTicketId } from './use-open-ticket-id';

/**
 * /tickets/:ticketId? — the list on the left, the chat on the right; one at a time under 600 px (§2). While the
 * contact panel sits beside the chat on a screen under 1600 px, the list gives way (hidden, not unmounted: its tab
 * and scroll stay) so the chat keeps a width to type in (issue 33 item 1).
 */
export function TicketsPage() {
  const { t } = useTranslation();
  const id = useOpenTicketId();
  const location = useLocation();
  // A ticket just taken (Accept, New ticket, Reopen) asks the manager to show the list it moved to. Anything else
  // (opening another ticket) leaves the manager's props as they are, so it does not render again.
  const follow = useMemo<FollowRequest | null>(() => {
    const request = readFollow(location.state);
    return request ? { key: location.key, isGroup: request.isGroup } : null;
  }, [location.key, location.state]);
  const small = useMediaQuery(SMALL_SCREEN_QUERY, { noSsr: true });
  const panelBesideChat = useMediaQuery(SIDE_PANEL_QUERY, { noSsr: true });
  const panelBesideList = useMediaQuery(PANEL_BESIDE_LIST_QUERY, { noSsr: true });
  const [contactPanelOpen, setContactPanelOpen] = useState(false);
  const listGivesWay = id !== undefined && contactPanelOpen && panelBesideChat && !panelBesideList;
  const showList = !small || id === undefined;
  const showChat = !small || id !== undefined;
  return (
    <Box sx={{ display: 'flex', height: 'calc(100dvh - 48px)', minHeight: 0, overflow: 'hidden' }}>
      {showList && (
        <Box
          sx={{ width: small ? '100%' : '34%', minWidth: small ? 0 : 340, maxWidth: small ? 'none' : 480, display: listGivesWay ? 'none' : 'flex', flexDirection: 'column', minHeight: 0 }}
          data-testid="tickets-column"
        >
          <TicketsManager follow={follow} />
        </Box>
      )}
      {showChat && (
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
          {id !== undefined ? (
            <ChatView key={id} ticketId={id} onContactPanel={setContactPanelOpen} />
          ) : (
            <Paper square elevation={0} sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column', gap: 1, bgcolor: '#f7f8fa' }} data-testid="no-ticket-selected">
              <ChatIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
              <Typography color="text.secondary">{t('tickets.noTicketSelected')}</Typography>
            </Paper>
          )}
        </Box>
      )}
    </Box>
  );
}
