import { isAdmin, type TicketDto, type UserDto, type UserListResponse } from '@wadesk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { AxiosError } from 'axios';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { api } from '../../services/api';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { updateTicket, useConnections, useQueuesList, type TicketChange } from './tickets-api';
import { applyTicketChange } from './tickets-live';

const MIN_SEARCH = 3;

/** Transfer a ticket (§2 Modals, §4): to a user, a queue (without a user: back to pending) and, for admins, a connection. */
export function TransferTicketModal({ ticket, open, onClose, onDone }: { ticket: TicketDto; open: boolean; onClose: () => void; onDone: (t: TicketDto) => void }) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const admin = isAdmin(me);
  const queryClient = useQueryClient();
  const [input, setInput] = useState('');
  const [user, setUser] = useState<UserDto | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const search = useDebouncedValue(input.trim().toLowerCase(), 500);
  const users = useQuery({
    queryKey: ['users', 'transfer', search],
    enabled: open && search.length >= MIN_SEARCH,
    queryFn: async () => (await api.get<UserListResponse>('/users', { params: { searchParam: search } })).data.users,
    meta: { silent: true },
    retry: false,
  });
  const usersForbidden = users.error instanceof AxiosError && users.error.response?.status === 403;
  const { data: allQueues = [] } = useQueuesList();
  const queues = user && user.queues.length > 0 ? user.queues : allQueues;
  const { data: connections = [] } = useConnections(open && admin);

  const close = () => {
    setInput('');
    setUser(null);
    setQueueId('');
    setWhatsappId('');
    setTried(false);
    onClose();
  };

  const submit = async () => {
    setTried(true);
    if (!user && queueId === '') return;
    const change: TicketChange = {};
    if (user) change.userId = user.id;
    if (queueId !== '') change.queueId = queueId;
    if (admin && whatsappId !== '') change.whatsappId = whatsappId;
    if (!user && queueId !== '') change.userId = null;
    setSaving(true);
    try {
      const updated = await updateTicket(ticket.id, change);
      applyTicketChange(queryClient, me, { type: 'update', ticket: updated });
      close();
      onDone(updated);
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  const userMissing = tried && !user && queueId === '';
  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tickets.transfer.title')}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2 }}>
        {!usersForbidden && (
          <Autocomplete<UserDto>
            options={search.length >= MIN_SEARCH ? (users.data ?? []) : []}
            filterOptions={(o) => o}
            loading={users.isFetching}
            inputValue={input}
            onInputChange={(_, v) => setInput(v)}
            value={user}
            onChange={(_, v) => setUser(v)}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={search.length < MIN_SEARCH ? t('tickets.transfer.minChars') : t('tickets.transfer.noUsers')}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('tickets.transfer.user')}
                required={queueId === ''}
                error={userMissing}
                helperText={userMissing ? t('tickets.transfer.required') : t('tickets.transfer.userHelp')}
              />
            )}
          />
        )}
        <TextField select label={t('tickets.transfer.queue')} value={queueId} onChange={(e) => setQueueId(e.target.value === '' ? '' : Number(e.target.value))}>
          <MenuItem value="">
            <em>{t('tickets.transfer.noChange')}</em>
          </MenuItem>
          {queues.map((q) => (
            <MenuItem key={q.id} value={q.id}>
              {q.name}
            </MenuItem>
          ))}
        </TextField>
        {admin && (
          <TextField select label={t('tickets.transfer.connection')} value={whatsappId} onChange={(e) => setWhatsappId(e.target.value === '' ? '' : Number(e.target.value))}>
            <MenuItem value="">
              <em>{t('tickets.transfer.noChange')}</em>
            </MenuItem>
            {connections.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={saving}>
          {t('tickets.transfer.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
