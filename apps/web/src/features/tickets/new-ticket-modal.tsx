import { zodResolver } from '@hookform/resolvers/zod';
import { ContactWithoutExtraInfoInput, type ContactDto, type ErrorBody } from '@wadesk/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { isAxiosError } from 'axios';
import { z } from 'zod';
import { useStableNavigate } from '../../app/stable-navigate';
import { FormTextField } from '../../components/form-text-field';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { toastError } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { translateNumberError } from '../contacts/contact-form';
import { followTicket } from './follow-ticket';
import { createContact, createTicket, searchContacts } from './tickets-api';
import { applyTicketChange } from './tickets-live';

const MIN_SEARCH = 3;

type Option = ContactDto | { create: string };

interface NewTicketValues {
  contact: ContactDto | null;
  name: string;
  number: string;
}

const EMPTY: NewTicketValues = { contact: null, name: '', number: '' };

/**
 * A contact picked from the search, or a new one from its name and number with the contact form's rule
 * (ContactWithoutExtraInfoInput: the one phone-number rule of issue 33 item 11 stores "+55 11 95555-4444" as digits).
 */
function newTicketSchema(creating: boolean) {
  return creating
    ? ContactWithoutExtraInfoInput.pick({ name: true, number: true }).extend({ contact: z.null() })
    : z.object({ contact: z.custom<ContactDto>((v) => v != null, 'Required'), name: z.string(), number: z.string() });
}

/** New ticket (§2 Modals): pick a contact (or create one from the typed name) and open a ticket with it. */
export function NewTicketModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useStableNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [input, setInput] = useState('');
  /** A new contact is being written (the search offered to create one). */
  const [creating, setCreating] = useState(false);
  const resolver = useMemo(() => zodResolver(newTicketSchema(creating)) as unknown as Resolver<NewTicketValues>, [creating]);
  const form = useForm<NewTicketValues>({ resolver, mode: 'onChange', defaultValues: EMPTY });
  const search = useDebouncedValue(input.trim().toLowerCase(), 500);
  const { data: contacts = [], isFetching } = useQuery({
    queryKey: ['contacts', 'search', search],
    enabled: open && search.length >= MIN_SEARCH,
    queryFn: () => searchContacts(search),
  });
  const typed = input.trim();
  const options: Option[] =
    search.length >= MIN_SEARCH && !isFetching && contacts.length === 0 && typed.length >= MIN_SEARCH ? [{ create: typed }] : contacts;

  const close = () => {
    setInput('');
    setCreating(false);
    form.reset(EMPTY);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      // The values passed the schema: a new contact's number is its digits.
      const contact = values.contact ?? (await createContact({ name: values.name, number: values.number }));
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
    }
  });

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tickets.newTicket.title')}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important', display: 'flex', flexDirection: 'column', gap: 2 }}>
        {!creating ? (
          <Controller
            control={form.control}
            name="contact"
            render={({ field }) => (
              <Autocomplete<Option>
                options={options}
                filterOptions={(o) => o}
                loading={isFetching}
                inputValue={input}
                onInputChange={(_, v) => setInput(v)}
                value={field.value}
                onChange={(_, value) => {
                  if (value && 'create' in value) {
                    const isNumber = /^[\d\s()+.-]+$/.test(value.create);
                    setCreating(true);
                    form.reset({ contact: null, name: isNumber ? '' : value.create, number: isNumber ? value.create : '' });
                  } else field.onChange(value);
                }}
                getOptionLabel={(o) => ('create' in o ? t('tickets.newTicket.create', { name: o.create }) : `${o.name} - ${o.number}`)}
                isOptionEqualToValue={(a, b) => 'id' in a && 'id' in b && a.id === b.id}
                noOptionsText={search.length < MIN_SEARCH ? t('tickets.newTicket.minChars') : t('tickets.newTicket.noContacts')}
                renderInput={(params) => <TextField {...params} autoFocus label={t('tickets.newTicket.contact')} />}
              />
            )}
          />
        ) : (
          <>
            <FormTextField form={form} name="name" label={t('tickets.newTicket.name')} autoFocus />
            <FormTextField
              form={form}
              name="number"
              label={t('tickets.newTicket.number')}
              slotProps={{ htmlInput: { inputMode: 'tel' } }}
              errorText={(message) => translateNumberError(t, message)}
              helperText={t('tickets.newTicket.numberHelp')}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={form.formState.isSubmitting || !form.formState.isValid}>
          {t('tickets.newTicket.start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
