import { isAdmin } from '@wadesk/contracts';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/TaskAlt';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import GroupsIcon from '@mui/icons-material/Groups';
import MoveToInboxIcon from '@mui/icons-material/MoveToInbox';
import SearchIcon from '@mui/icons-material/Search';
import { useQueryClient } from '@tanstack/react-query';
import { memo, startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableNavigate } from '../../app/stable-navigate';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { MessageDialog } from '../../components/message-dialog';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { useWhatsapps } from '../layout/use-connections-attention';
import { NewTicketModal } from './new-ticket-modal';
import { LabelFilter, useSelectedLabels } from '../labels/label-filter';
import { useLabelList } from '../labels/labels-api';
import { QueueSelect, useSelectedQueues } from './queue-select';
import { useOpenedOnce } from './use-opened-once';
import { closeAllTickets, TICKETS_KEY, useTicketsCount, type TicketListParams } from './tickets-api';
import { TicketsList } from './tickets-list';

type MainTab = 'open' | 'group' | 'closed' | 'search';
type SubTab = 'open' | 'pending';
type ClosedTab = 'private' | 'group';

function CountLabel({ label, count }: { label: string; count: number | undefined }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.5 }}>
      {label}
      {count === undefined ? (
        // Still loading: a placeholder, not a 0 that is not true.
        <Skeleton variant="rounded" width={20} height={20} sx={{ borderRadius: 10 }} data-testid="count-loading" />
      ) : (
        <Badge badgeContent={count} color="secondary" max={9999} showZero sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }} />
      )}
    </Box>
  );
}

/** Shows the list a ticket just taken moved to: `key` tells one request from the next. */
export interface FollowRequest {
  key: string;
  isGroup: boolean;
}

/** Leads to the connections page. */
function AddConnectionButton() {
  const { t } = useTranslation();
  const navigate = useStableNavigate();
  return (
    <Button sx={{ mt: 1.5 }} variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/connections')}>
      {t('tickets.empty.addConnection')}
    </Button>
  );
}

/**
 * The tickets manager (§2): tabs, filters and the lists. Memoized, and reading no location: opening a ticket does
 * not render it again (the list marks the open ticket itself).
 */
export const TicketsManager = memo(function TicketsManager({ follow }: { follow: FollowRequest | null }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const admin = isAdmin(user);
  const userQueues = user?.queues ?? [];
  const [tab, setTab] = useState<MainTab>('open');
  const [sub, setSub] = useState<SubTab>('open');
  const [closedTab, setClosedTab] = useState<ClosedTab>('private');
  const [showAll, setShowAll] = useState(admin);
  const [selectedQueues, setSelectedQueues] = useSelectedQueues(user?.id, userQueues);
  const { data: labelList } = useLabelList();
  const labels = labelList ?? [];
  const [selectedLabels, setSelectedLabels] = useSelectedLabels(user?.id);
  // A label deleted since it was chosen no longer filters (once the list is known).
  const labelIds = labelList ? selectedLabels.filter((id) => labelList.some((l) => l.id === id)) : selectedLabels;
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), 500);
  const [newOpen, setNewOpen] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const [closing, setClosing] = useState(false);
  const [closedCount, setClosedCount] = useState<number | null>(null);
  const hadSearch = useRef(false);
  const { data: connections } = useWhatsapps();
  // Mounted when first opened, not with the list: its hooks would run at every render for nothing.
  const newTicketMounted = useOpenedOnce(newOpen);

  // A ticket just taken (Accept, New ticket, Reopen) is followed to Working on, where it stays selected. In a
  // transition: the chat of the ticket shows first, the list changes right after.
  useEffect(() => {
    if (!follow) return;
    startTransition(() => {
      setTab((current) => (current === 'search' ? current : follow.isGroup ? 'group' : 'open'));
      setSub('open');
    });
  }, [follow]);

  // Clearing the search returns to the open tab (§2).
  useEffect(() => {
    if (search.trim()) hadSearch.current = true;
    else if (hadSearch.current && tab === 'search') {
      hadSearch.current = false;
      setTab('open');
    }
  }, [search, tab]);

  const base = { showAll: admin && showAll, queueIds: userQueues.length ? selectedQueues : undefined, labelIds: labelIds.length ? labelIds : undefined };
  const isGroup = tab === 'group';
  const openParams: TicketListParams = { ...base, status: 'open', isGroup };
  const pendingParams: TicketListParams = { ...base, status: 'pending', isGroup };
  const inboxLike = tab === 'open' || tab === 'group';
  const openCount = useTicketsCount(openParams, inboxLike);
  const pendingCount = useTicketsCount(pendingParams, inboxLike);

  let listParams: TicketListParams;
  if (tab === 'closed') listParams = { ...base, status: 'closed', isGroup: closedTab === 'group' };
  else if (tab === 'search') listParams = { ...base, searchParam };
  else listParams = sub === 'open' ? openParams : pendingParams;

  // An empty list says what to do next.
  let empty: { text: string; action?: ReactNode } | undefined;
  if (connections && connections.length === 0 && tab !== 'search') {
    empty = {
      text: admin ? t('tickets.empty.noConnection') : t('tickets.empty.noConnectionUser'),
      action: admin ? <AddConnectionButton /> : undefined,
    };
  } else if (inboxLike && sub === 'open' && pendingCount) {
    empty = {
      text: t('tickets.empty.queueWaiting', { count: pendingCount }),
      action: (
        <Button sx={{ mt: 1.5 }} variant="contained" size="small" onClick={() => setSub('pending')}>
          {t('tickets.empty.goToQueue')}
        </Button>
      ),
    };
  } else if (inboxLike && sub === 'open') {
    empty = { text: t('tickets.empty.nothingOpen') };
  }

  const closeAll = async () => {
    setClosing(true);
    try {
      // The view the counts of Working on and Queue come from: the server closes the same tickets.
      const closed = await closeAllTickets({ showAll: base.showAll, queueIds: base.queueIds, labelIds: base.labelIds, isGroup });
      setConfirmClose(false);
      setClosedCount(closed);
      await queryClient.invalidateQueries({ queryKey: TICKETS_KEY });
    } catch (err) {
      toastError(err);
    } finally {
      setClosing(false);
    }
  };

  return (
    <Paper square elevation={0} sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, borderRight: 1, borderColor: 'divider' }}>
      <Tabs value={tab} onChange={(_, v: MainTab) => setTab(v)} variant="fullWidth" sx={{ minHeight: 56, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="open" icon={<MoveToInboxIcon fontSize="small" />} label={t('tickets.tabs.open')} sx={{ minHeight: 56, py: 0.5, minWidth: 0, fontSize: 12 }} />
        <Tab value="group" icon={<GroupsIcon fontSize="small" />} label={t('tickets.tabs.group')} sx={{ minHeight: 56, py: 0.5, minWidth: 0, fontSize: 12 }} />
        <Tab value="closed" icon={<CheckCircleIcon fontSize="small" />} label={t('tickets.tabs.closed')} sx={{ minHeight: 56, py: 0.5, minWidth: 0, fontSize: 12 }} />
        <Tab value="search" icon={<SearchIcon fontSize="small" />} label={t('tickets.tabs.search')} sx={{ minHeight: 56, py: 0.5, minWidth: 0, fontSize: 12 }} />
      </Tabs>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 1, flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider' }}>
        {tab === 'search' ? (
          <TextField
            size="small"
            fullWidth
            autoFocus
            placeholder={t('tickets.manager.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
          />
        ) : (
          <>
            <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => setNewOpen(true)}>
              {t('tickets.manager.new')}
            </Button>
            {/* Nothing to close on the Resolved tab. */}
            {tab !== 'closed' && (
              <Button size="small" variant="outlined" color="warning" startIcon={<DoneAllIcon />} onClick={() => setConfirmClose(true)}>
                {t('tickets.manager.closeAll')}
              </Button>
            )}
            <Box sx={{ flex: 1 }} />
            {admin && (
              <FormControlLabel
                sx={{ mr: 0 }}
                control={<Switch size="small" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />}
                label={t('tickets.manager.showAll')}
                slotProps={{ typography: { variant: 'body2' } }}
              />
            )}
            <QueueSelect queues={userQueues} selected={selectedQueues} onChange={setSelectedQueues} />
            <LabelFilter labels={labels} selected={selectedLabels} onChange={setSelectedLabels} />
          </>
        )}
      </Box>
      {inboxLike && (
        <Tabs value={sub} onChange={(_, v: SubTab) => setSub(v)} variant="fullWidth" sx={{ minHeight: 40, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="open" sx={{ minHeight: 40, py: 0 }} label={<CountLabel label={t('tickets.tabs.workingOn')} count={openCount} />} />
          <Tab value="pending" sx={{ minHeight: 40, py: 0 }} label={<CountLabel label={t('tickets.tabs.queue')} count={pendingCount} />} />
        </Tabs>
      )}
      {tab === 'closed' && (
        <Tabs value={closedTab} onChange={(_, v: ClosedTab) => setClosedTab(v)} variant="fullWidth" sx={{ minHeight: 40, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="private" sx={{ minHeight: 40, py: 0 }} label={t('tickets.tabs.private')} />
          <Tab value="group" sx={{ minHeight: 40, py: 0 }} label={t('tickets.tabs.groups')} />
        </Tabs>
      )}
      {tab === 'search' && !searchParam ? (
        <Box sx={{ flex: 1 }} />
      ) : (
        <TicketsList key={JSON.stringify(listParams)} params={listParams} testId="tickets-list" empty={empty} />
      )}
      {newTicketMounted && <NewTicketModal open={newOpen} onClose={() => setNewOpen(false)} />}
      <ConfirmDialog
        open={confirmClose}
        title={t('tickets.manager.closeAllTitle', { count: (openCount ?? 0) + (pendingCount ?? 0) })}
        text={t('tickets.manager.closeAllText')}
        busy={closing}
        onConfirm={() => void closeAll()}
        onClose={() => setConfirmClose(false)}
      />
      <MessageDialog open={closedCount !== null} title={t('tickets.manager.closedAllTitle')} onClose={() => setClosedCount(null)} testId="closed-all-dialog">
        {t('tickets.manager.closedAll', { count: closedCount ?? 0 })}
      </MessageDialog>
    </Paper>
  );
});
