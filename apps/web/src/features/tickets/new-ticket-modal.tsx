import { normalizeWhatsappNumber, NUMBER_PROBLEM_MESSAGES, type ContactDto, type ErrorBody } from '@wadesk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { isAxiosError } from 'axios';
import { useStableNavigate } from '../../app/stable-navigate';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { translateNumberError } from '../contacts/contact-form';
import { followTicket } from './follow-ticket';
import { createContact, createTicket, searchContacts } from './tickets-api';
import { applyTicketChange } from './tickets-live';

const MIN_SEARCH = 3;

type Option = ContactDto | { create: string };

/** New ticket (§2 Modals): pick a contact (or create one from the typed name) and open a ticket with it. */
export function NewTicketModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useStableNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [input, setInput] = useState('');
  const [selected, setSelected] = useState<ContactDto | null>(null);
  const [newNumber, setNewNumber] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [saving, setSaving] = useState(false);
  const search = useDebouncedValue(input.trim().toLowerCase(), 500);
  const { data: contacts = [], isFetching } = useQuery({
    queryKey: ['contacts', 'search', search],
    enabled: open && search.length >= MIN_SEARCH,
    queryFn: () => searchContacts(search),
  });
  const typed = input.trim();
  const options: Option[] =
    search.length >= MIN_SEARCH && !isFetching && contacts.length === 0 && typed.length >= MIN_SEARCH ? [{ create: typed }] : contacts;

  // The one phone-number rule (issue 33 item 11): "+55 11 95555-4444" is stored as digits; a wrong number says why.
  const phone = newNumber === null || newNumber.trim() === '' ? null : normalizeWhatsappNumber(newNumber);
  const phoneError = phone && !phone.ok ? translateNumberError(t, NUMBER_PROBLEM_MESSAGES[phone.reason]) ?? null : null;

  const close = () => {
    setInput('');
    setSelected(null);
    setNewNumber(null);
    setNewName('');
    onClose();
  };

  const submit = async () => {
    setSaving(true);
    try {
      let contact = selected;
      if (!contact && phone?.ok) contact = await createContact({ name: newName.trim(), number: phone.number });
      if (!contact) return;
      const ticket = await createTicket({ contactId: contact.id, userId: user?.id, status: 'open' });
      applyTicketChange(queryClient, user, { type: 'update', ticket, moveToTop: true });
      close();
      navigate(`/tickets/${ticket.id}`, { state: followTicket(ticket) });
    } catch (err) {
      // The contact's conversation is under way (a number typed in another form finds its contact): open it instead.
      const body = isAxiosError<ErrorBody>(err) ? err.response?.data : undefined;
      if (body?.error === 'ERR_OTHER_OPEN_TICKET' && body.ticketId) {
        close();
        toast.info(t('tickets.newTicket.alreadyOpen'));
        navigate(`/tickets/${body.ticketId}`);
        return;
      }
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tickets.newTicket.title')}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2 }}>
        {newNumber === null ? (
          <Autocomplete<Option>
            options={options}
            filterOptions={(o) => o}
            loading={isFetching}
            inputValue={input}
            onInputChange={(_, v) => setInput(v)}
            value={selected}
            onChange={(_, value) => {
              if (value && 'create' in value) {
                const isNumber = /^[\d\s()+.-]+$/.test(value.create);
                setNewName(isNumber ? '' : value.create);
                setNewNumber(isNumber ? value.create : '');
                setSelected(null);
              } else setSelected(value);
            }}
            getOptionLabel={(o) => ('create' in o ? t('tickets.newTicket.create', { name: o.create }) : `${o.name} - ${o.number}`)}
            isOptionEqualToValue={(a, b) => 'id' in a && 'id' in b && a.id === b.id}
            noOptionsText={search.length < MIN_SEARCH ? t('tickets.newTicket.minChars') : t('tickets.newTicket.noContacts')}
            renderInput={(params) => (
              <TextField
                {...params}
                autoFocus
                label={t('tickets.newTicket.contact')}
              />
            )}
          />
        ) : (
          <>
            <TextField label={t('tickets.newTicket.name')} value={newName} onChange={(e) => setNewName(e.target.value)} autoFocus />
            <TextField
              label={t('tickets.newTicket.number')}
              value={newNumber}
              onChange={(e) => setNewNumber(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'tel' } }}
              error={phoneError !== null}
              helperText={phoneError ?? t('tickets.newTicket.numberHelp')}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={saving || (!selected && (!phone?.ok || newName.trim().length < 2))}
        >
          {t('tickets.newTicket.start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
