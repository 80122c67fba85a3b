import { zodResolver } from '@hookform/resolvers/zod';
import { idField, isAdmin, type ColleagueDto, type TicketDto } from '@wadesk/contracts';
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
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { updateTicket, useColleagues, useConnections, useQueuesList, type TicketChange } from './tickets-api';
import { applyTicketChange } from './tickets-live';

/** The first choice of the list: nobody, the ticket waits in the chosen queue (§4: pending, no user). */
const NOBODY_ID = 0;

/** A queue or connection to move to, or '' to keep the ticket's. */
const keepOrId = z.union([idField, z.literal('')]);

/**
 * Who takes it is required (§5); "nobody" needs a queue to wait in (§4). Messages are i18n keys. The ids follow the
 * server's rule (idField).
 */
const TransferSchema = z
  .object({ user: z.custom<ColleagueDto>((v) => v != null, 'tickets.transfer.required'), queueId: keepOrId, whatsappId: keepOrId })
  .superRefine((v, ctx) => {
    if (v.user?.id === NOBODY_ID && v.queueId === '') ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'tickets.transfer.queueRequired' });
  });

interface TransferValues {
  user: ColleagueDto | null;
  queueId: number | '';
  whatsappId: number | '';
}

const EMPTY: TransferValues = { user: null, queueId: '', whatsappId: '' };
const resolver = zodResolver(TransferSchema) as unknown as Resolver<TransferValues>;

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
  const form = useForm<TransferValues>({ resolver, defaultValues: EMPTY });
  const [user, queueId] = useWatch({ control: form.control, name: ['user', 'queueId'] });
  const colleagues = useColleagues(open);
  const nobody: ColleagueDto = { id: NOBODY_ID, name: t('tickets.transfer.nobody'), queues: [] };
  const options = colleagues.data ? [nobody, ...colleagues.data] : [];
  const { data: allQueues = [] } = useQueuesList();
  // The colleague's queues when they have some (where they work), else every queue.
  const queues = user && user.queues.length > 0 ? user.queues : allQueues;
  const toQueue = user?.id === NOBODY_ID;
  const { data: connections = [] } = useConnections(open && admin);
  const { errors } = form.formState;

  const close = () => {
    form.reset(EMPTY);
    onClose();
  };

  const pickUser = (picked: ColleagueDto | null) => {
    form.setValue('user', picked, { shouldValidate: form.formState.isSubmitted });
    // A queue chosen for someone else may not be one of the new colleague's.
    if (picked && picked.queues.length > 0 && queueId !== '' && !picked.queues.some((q) => q.id === queueId)) form.setValue('queueId', '');
    // Once Transfer was pressed, the queue's rule follows the choice ("nobody" needs one, a colleague does not).
    if (form.formState.isSubmitted) void form.trigger('queueId');
  };

  const submit = form.handleSubmit(async (values) => {
    // Nobody + a queue: the server sends the ticket back to pending in that queue.
    const change: TicketChange = values.user?.id === NOBODY_ID ? { userId: null } : { userId: values.user!.id };
    if (values.queueId !== '') change.queueId = values.queueId;
    if (admin && values.whatsappId !== '') change.whatsappId = values.whatsappId;
    try {
      const updated = await updateTicket(ticket.id, change);
      applyTicketChange(queryClient, me, { type: 'update', ticket: updated });
      close();
      onDone(updated);
    } catch (err) {
      toastError(err);
    }
  });

  const userError = errors.user?.message;
  const queueError = errors.queueId?.message;
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
              error={!!userError}
              helperText={userError ? t(userError) : t('tickets.transfer.userHelp')}
            />
          )}
        />
        <Controller
          control={form.control}
          name="queueId"
          render={({ field }) => (
            <TextField
              select
              label={t('tickets.transfer.queue')}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
              onBlur={field.onBlur}
              required={toQueue}
              slotProps={KEEP_AS_IS_SHOWN}
              error={!!queueError}
              helperText={queueError ? t(queueError) : undefined}
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
          )}
        />
        {admin && (
          <Controller
            control={form.control}
            name="whatsappId"
            render={({ field }) => (
              <TextField
                select
                label={t('tickets.transfer.connection')}
                value={field.value}
                slotProps={KEEP_AS_IS_SHOWN}
                onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
                onBlur={field.onBlur}
              >
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
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={form.formState.isSubmitting}>
          {t('tickets.transfer.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
