import { isAdmin, type ColleagueDto, type TicketDto } from '@wadesk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { updateTicket, useColleagues, useConnections, useQueuesList, type TicketChange } from './tickets-api';
import { applyTicketChange } from './tickets-live';

/** The first choice of the list: nobody, the ticket waits in the chosen queue (§4: pending, no user). */
const NOBODY_ID = 0;

/** The selects show "Keep as is" while nothing is chosen, rather than an empty box. */
const KEEP_AS_IS_SHOWN = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

/**
 * Transfer a ticket (§2 Modals, §4). Who takes it is required (§5): a colleague picked from the whole list
 * (GET /users/list, loaded once, filtered as you type, accents and case ignored), or "nobody", which then
 * needs a queue to wait in. Optionally a queue and, for admins, another connection.
 */
export function TransferTicketModal({ ticket, open, onClose, onDone }: { ticket: TicketDto; open: boolean; onClose: () => void; onDone: (t: TicketDto) => void }) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const admin = isAdmin(me);
  const queryClient = useQueryClient();
  const [user, setUser] = useState<ColleagueDto | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const colleagues = useColleagues(open);
  const nobody: ColleagueDto = { id: NOBODY_ID, name: t('tickets.transfer.nobody'), queues: [] };
  const options = colleagues.data ? [nobody, ...colleagues.data] : [];
  const { data: allQueues = [] } = useQueuesList();
  // The colleague's queues when they have some (where they work), else every queue.
  const queues = user && user.queues.length > 0 ? user.queues : allQueues;
  const toQueue = user?.id === NOBODY_ID;
  const { data: connections = [] } = useConnections(open && admin);

  const close = () => {
    setUser(null);
    setQueueId('');
    setWhatsappId('');
    setTried(false);
    onClose();
  };

  const pickUser = (picked: ColleagueDto | null) => {
    setUser(picked);
    // A queue chosen for someone else may not be one of the new colleague's.
    if (picked && picked.queues.length > 0 && queueId !== '' && !picked.queues.some((q) => q.id === queueId)) setQueueId('');
  };

  const submit = async () => {
    setTried(true);
    if (!user || (toQueue && queueId === '')) return;
    // Nobody + a queue: the server sends the ticket back to pending in that queue.
    const change: TicketChange = toQueue ? { userId: null } : { userId: user.id };
    if (queueId !== '') change.queueId = queueId;
    if (admin && whatsappId !== '') change.whatsappId = whatsappId;
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

  const userMissing = tried && !user;
  const queueMissing = tried && toQueue && queueId === '';
  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tickets.transfer.title')}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Autocomplete<ColleagueDto>
          options={options}
          loading={colleagues.isLoading}
          openOnFocus
          autoHighlight
          value={user}
          onChange={(_, v) => pickUser(v)}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={t('tickets.transfer.noUsers')}
          loadingText={t('tickets.transfer.loadingUsers')}
          renderOption={({ key, ...props }, o) => (
            <Box component="li" key={key} {...props} data-testid="transfer-user-option" sx={o.id === NOBODY_ID ? { fontStyle: 'italic', borderBottom: 1, borderColor: 'divider' } : undefined}>
              <Box sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
                <Typography variant="body2" noWrap>
                  {o.name}
                  {o.id === me?.id ? ` (${t('tickets.transfer.you')})` : ''}
                </Typography>
                {o.queues.length > 0 && (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'center' }}>
                    {o.queues.map((q) => (
                      <Typography key={q.id} variant="caption" color="text.secondary" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                        <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: q.color, flexShrink: 0 }} />
                        {q.name}
                      </Typography>
                    ))}
                  </Box>
                )}
              </Box>
            </Box>
          )}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('tickets.transfer.user')}
              required
              error={userMissing}
              helperText={userMissing ? t('tickets.transfer.required') : t('tickets.transfer.userHelp')}
            />
          )}
        />
        <TextField
          select
          label={t('tickets.transfer.queue')}
          value={queueId}
          onChange={(e) => setQueueId(e.target.value === '' ? '' : Number(e.target.value))}
          required={toQueue}
          slotProps={KEEP_AS_IS_SHOWN}
          error={queueMissing}
          helperText={queueMissing ? t('tickets.transfer.queueRequired') : undefined}
        >
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
          <TextField select label={t('tickets.transfer.connection')} value={whatsappId} slotProps={KEEP_AS_IS_SHOWN} onChange={(e) => setWhatsappId(e.target.value === '' ? '' : Number(e.target.value))}>
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
