import { can, type ContactDto, type TicketCsatDto, type TicketDto } from '@wadesk/contracts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../services/socket';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { LabelChip } from '../labels/label-chips';
import { ContactFormFields, contactFormResolver, toContactFormValues, type ContactFormValues } from '../contacts/contact-form';
import { CONTACTS_KEY, updateContact, useContact } from '../contacts/contacts-api';
import { SMALL_SCREEN_QUERY } from '../layout/app-layout';
import { ContactSchedules } from '../schedules/contact-schedules';
import { useToolAccess } from '../settings/use-tool-access';
import { CsatRating } from '../csat/csat-rating';
import { TICKETS_KEY } from './tickets-api';

export const CONTACT_DRAWER_WIDTH = 320;

export interface ContactDrawerProps {
  /** The ticket's contact: shown at once, then replaced by the full contact (with its extra info). */
  contact: ContactDto;
  open: boolean;
  onClose: () => void;
  /** The open ticket's satisfaction rating (issue 36 §5), shown in the panel. */
  csat?: TicketCsatDto | null;
}

/**
 * From this width the panel sits beside the chat; below it, it is a drawer over the chat (issue 33 item 1: at 1024 px
 * the chat beside list and panel would be too narrow to type in).
 */
export const SIDE_PANEL_QUERY = '(min-width:1200px)';
/** From this width the ticket list stays beside the chat and the panel; below it, the list gives way while the panel is open. */
export const PANEL_BESIDE_LIST_QUERY = '(min-width:1600px)';

/**
 * The contact drawer (§2, 320 px): avatar, name, number as a tel: link, extra info, edited in place. On wide
 * screens a panel to the right of the chat that shrinks it (the ticket list gives way under 1600 px, see
 * TicketsPage); on narrower ones a drawer over the chat (the whole width under 600 px).
 */
export function ContactDrawer({ contact, open, onClose, csat = null }: ContactDrawerProps) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY, { noSsr: true });
  const side = useMediaQuery(SIDE_PANEL_QUERY, { noSsr: true });
  if (!side) {
    return (
      // Above the app bar (which sits over the navigation drawer on desktop), so its title and close show.
      <Drawer
        anchor="right"
        open={open}
        onClose={onClose}
        sx={{ zIndex: (theme) => theme.zIndex.modal, '& .MuiDrawer-paper': { width: small ? '100%' : CONTACT_DRAWER_WIDTH } }}
      >
        <ContactPanel contact={contact} onClose={onClose} csat={csat} />
      </Drawer>
    );
  }
  if (!open) return null;
  return (
    <Box
      component="aside"
      sx={{
        width: CONTACT_DRAWER_WIDTH,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      <ContactPanel contact={contact} onClose={onClose} csat={csat} />
    </Box>
  );
}

/** Puts a saved contact in the caches that show it: the contact itself and the open ticket's header. */
function applySavedContact(queryClient: QueryClient, contact: ContactDto): void {
  queryClient.setQueryData([...CONTACTS_KEY, 'one', contact.id], contact);
  queryClient.setQueriesData<TicketDto>({ queryKey: [...TICKETS_KEY, 'one'] }, (ticket) =>
    ticket && ticket.contactId === contact.id ? { ...ticket, contact } : ticket,
  );
}

function ContactPanel({ contact: ticketContact, onClose, csat }: { contact: ContactDto; onClose: () => void; csat: TicketCsatDto | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  // The ticket carries the contact without its extra info: load the contact itself.
  const { data, isLoading } = useContact(ticketContact.id);
  const contact = data ?? ticketContact;
  const [editing, setEditing] = useState(false);
  // The contact's scheduled messages: the tool `schedules` of attendantTools (issue 32).
  const maySchedule = useToolAccess().may('schedules');
  const numberLocked = !can(user?.profile, 'contacts-page:changeNumber');
  const form = useForm<ContactFormValues>({ resolver: contactFormResolver(contact.number), defaultValues: toContactFormValues(contact) });

  // Live: another screen (or colleague) saved this contact.
  useSocketEvent('contact', (e) => {
    if (e.action !== 'delete' && e.contact.id === ticketContact.id) applySavedContact(queryClient, e.contact);
  });

  const startEditing = () => {
    form.reset(toContactFormValues(contact));
    setEditing(true);
  };

  const save = form.handleSubmit(async (values) => {
    try {
      const saved = await updateContact(contact.id, values);
      applySavedContact(queryClient, saved);
      toastSuccess(t('contacts.saved'));
      setEditing(false);
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <>
      <Toolbar variant="dense" sx={{ borderBottom: 1, borderColor: 'divider', gap: 1, flexShrink: 0 }}>
        <IconButton edge="start" aria-label={t('tickets.contact.close')} onClick={onClose} data-testid="contact-drawer-close">
          <CloseIcon />
        </IconButton>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1 }}>
          {editing ? t('contacts.modal.editTitle') : t('tickets.contact.title')}
        </Typography>
      </Toolbar>
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }} data-testid="contact-drawer">
        {editing ? (
          <Box component="form" noValidate onSubmit={(e) => void save(e)} sx={{ p: 2 }} data-testid="contact-panel-form">
            <Stack spacing={2}>
              <ContactFormFields form={form} numberLocked={numberLocked} compact autoFocus labels={contact.labels} />
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                <Button onClick={() => setEditing(false)} disabled={form.formState.isSubmitting}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
                  {t('common.save')}
                </Button>
              </Stack>
            </Stack>
          </Box>
        ) : (
          <>
            <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }}>
              <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 120, height: 120, fontSize: 48 }}>
                {contact.name.slice(0, 1).toUpperCase()}
              </Avatar>
              <Typography variant="h6" sx={{ textAlign: 'center', wordBreak: 'break-word' }} data-testid="contact-drawer-name">
                {contact.name}
              </Typography>
              <Link href={`tel:+${contact.number}`}>{contact.number}</Link>
              {contact.email && (
                <Link href={`mailto:${contact.email}`} variant="body2" sx={{ wordBreak: 'break-all' }}>
                  {contact.email}
                </Link>
              )}
              <Button variant="outlined" startIcon={<EditIcon />} onClick={startEditing} disabled={isLoading}>
                {t('tickets.contact.edit')}
              </Button>
            </Box>
            <Box sx={{ px: 2, pb: 2 }} data-testid="contact-labels">
              <Typography variant="subtitle2" gutterBottom>
                {t('labels.contactTitle')}
              </Typography>
              {contact.labels.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {t('labels.noLabels')}
                </Typography>
              ) : (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {contact.labels.map((label) => (
                    <LabelChip key={label.id} label={label} size="medium" />
                  ))}
                </Box>
              )}
            </Box>
            {csat && (
              <Box sx={{ px: 2, pb: 2 }} data-testid="contact-csat">
                <Typography variant="subtitle2" gutterBottom>
                  {t('csat.title')}
                </Typography>
                <CsatRating csat={csat} full testId="contact-csat-rating" />
              </Box>
            )}
            <Box sx={{ px: 2, pb: 2 }} data-testid="contact-extra-info">
              <Typography variant="subtitle2" gutterBottom>
                {t('tickets.contact.extraInfo')}
              </Typography>
              {isLoading && <CircularProgress size={20} aria-label={t('common.loading')} />}
              {!isLoading && contact.extraInfo.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  {t('tickets.contact.noExtraInfo')}
                </Typography>
              )}
              {contact.extraInfo.map((info) => (
                <Paper key={info.id} variant="outlined" sx={{ p: 1, mb: 1 }}>
                  <Typography variant="caption" color="text.secondary">
                    {info.name}
                  </Typography>
                  <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                    {info.value}
                  </Typography>
                </Paper>
              ))}
            </Box>
            {maySchedule && (
              <Box sx={{ px: 2, pb: 2 }}>
                <ContactSchedules contactId={contact.id} />
              </Box>
            )}
          </>
        )}
      </Box>
    </>
  );
}
