import { can, isAdmin, type ContactDto } from '@wadesk/contracts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import ImportContactsIcon from '@mui/icons-material/ImportContacts';
import SearchIcon from '@mui/icons-material/Search';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { useConfirmedDelete } from '../../hooks/use-confirmed-delete';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useInfiniteScroll } from '../../hooks/use-infinite-scroll';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { ContactModal } from './contact-modal';
import { CsvImportDialog } from './csv-import-dialog';
import {
  deleteContact,
  downloadContactsCsv,
  importContacts,
  normalizeContactSearch,
  startTicket,
  useApplyContactChange,
  useContactsList,
  useContactsLiveUpdates,
} from './contacts-api';

const COLUMNS = 5;
/** Header buttons share the row on phones. */
const BUTTON_SX = { flex: { xs: '1 1 auto', sm: '0 0 auto' }, whiteSpace: 'nowrap' } as const;

export function ContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const mayDelete = can(user?.profile, 'contacts-page:deleteContact');
  const mayExport = can(user?.profile, 'contacts-page:export');
  const mayImport = isAdmin(user);
  // The CSV import is the export's counterpart: admins only, like the export (the server checks).
  const mayImportCsv = mayExport;
  const [search, setSearch] = useState('');
  const searchParam = normalizeContactSearch(useDebouncedValue(search, 500));
  const { data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useContactsList(searchParam);
  const contacts = data?.pages.flatMap((p) => p.contacts) ?? [];
  // `/contacts?edit=<id>` opens that contact's form (links from elsewhere in the app).
  const [searchParams, setSearchParams] = useSearchParams();
  const linkedId = Number(searchParams.get('edit'));
  const [modal, setModal] = useState<{ contactId?: number } | null>(() =>
    Number.isInteger(linkedId) && linkedId > 0 ? { contactId: linkedId } : null,
  );
  const closeModal = () => {
    setModal(null);
    if (searchParams.has('edit')) setSearchParams({}, { replace: true });
  };
  const [csvImport, setCsvImport] = useState(false);
  const [confirmImport, setConfirmImport] = useState(false);
  const [busy, setBusy] = useState<'import' | 'export' | `ticket-${number}` | null>(null);
  const applyChange = useApplyContactChange();
  useContactsLiveUpdates();

  const { loadMore, onScroll } = useInfiniteScroll({ hasNextPage, isFetchingNextPage, fetchNextPage });

  const toDelete = useConfirmedDelete(
    ({ id }: ContactDto) => deleteContact(id),
    ({ id }) => {
      applyChange({ action: 'delete', contactId: id });
      toastSuccess(t('contacts.deleted'));
    },
  );

  /** Runs one action at a time, toasting its failure. */
  const run = async (what: NonNullable<typeof busy>, action: () => Promise<void>) => {
    setBusy(what);
    try {
      await action();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const runImport = () =>
    run('import', async () => {
      const { imported } = await importContacts();
      toastSuccess(t('contacts.imported', { count: imported }));
      setConfirmImport(false);
    });

  const openTicket = (contact: ContactDto) =>
    run(`ticket-${contact.id}`, async () => {
      const ticket = await startTicket(contact.id);
      await navigate(`/tickets/${ticket.id}`);
    });

  return (
    <Page
      title={t('pages.contacts')}
      actions={
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'flex-end', width: '100%' }}>
          <TextField
            size="small"
            label={t('common.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ flex: { xs: '1 1 100%', sm: '1 1 220px' }, minWidth: 0 }}
          />
          {mayImport && (
            <Button
              variant="outlined"
              startIcon={<ImportContactsIcon />}
              onClick={() => setConfirmImport(true)}
              disabled={busy === 'import'}
              sx={BUTTON_SX}
            >
              {t('contacts.import')}
            </Button>
          )}
          {mayImportCsv && (
            <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setCsvImport(true)} sx={BUTTON_SX}>
              {t('contacts.importCsv')}
            </Button>
          )}
          {mayExport && (
            <Button
              variant="outlined"
              startIcon={busy === 'export' ? <CircularProgress size={16} /> : <DownloadIcon />}
              onClick={() => void run('export', downloadContactsCsv)}
              disabled={busy === 'export'}
              sx={BUTTON_SX}
            >
              {t('contacts.export')}
            </Button>
          )}
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setModal({})} sx={BUTTON_SX}>
            {t('contacts.add')}
          </Button>
        </Stack>
      }
    >
      <Paper variant="outlined">
        <TableContainer sx={{ maxHeight: { xs: 'calc(100vh - 260px)', sm: 'calc(100vh - 190px)' } }} onScroll={onScroll}>
          <Table stickyHeader size="small" data-testid="contacts-table" aria-label={t('pages.contacts')}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" aria-label={t('contacts.fields.avatar')} />
                <TableCell>{t('contacts.fields.name')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('contacts.fields.number')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('contacts.fields.email')}</TableCell>
                <TableCell align="right">{t('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {contacts.map((contact) => (
                <TableRow key={contact.id} hover data-testid="contact-row">
                  <TableCell padding="checkbox" sx={{ pl: { xs: 1, sm: 2 } }}>
                    <Avatar src={contact.profilePicUrl || undefined} alt="" sx={{ width: 32, height: 32 }}>
                      {contact.name.charAt(0).toUpperCase()}
                    </Avatar>
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {contact.name}
                    {/* On phones the number column is hidden: the number goes under the name. */}
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      component="div"
                      sx={{ display: { xs: 'block', sm: 'none' } }}
                    >
                      {contact.number}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap', display: { xs: 'none', sm: 'table-cell' } }}>
                    {contact.number}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>
                    {contact.email}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('contacts.startTicket')}>
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('contacts.startTicketFor', { name: contact.name })}
                          onClick={() => void openTicket(contact)}
                          disabled={busy === `ticket-${contact.id}`}
                        >
                          <WhatsAppIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <IconButton
                      size="small"
                      aria-label={t('contacts.editContact', { name: contact.name })}
                      onClick={() => setModal({ contactId: contact.id })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                    {mayDelete && (
                      <IconButton
                        size="small"
                        aria-label={t('contacts.deleteContact', { name: contact.name })}
                        onClick={() => toDelete.ask(contact)}
                      >
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {!isLoading && contacts.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {searchParam ? t('contacts.noMatch') : t('contacts.empty')}
                  </TableCell>
                </TableRow>
              )}
              {(isLoading || isFetchingNextPage) && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center" sx={{ py: 2 }}>
                    <CircularProgress size={24} aria-label={t('common.loading')} />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        {hasNextPage && !isFetchingNextPage && (
          <Box sx={{ p: 1, textAlign: 'center' }}>
            <Button onClick={loadMore}>{t('common.loadMore')}</Button>
          </Box>
        )}
      </Paper>
      {modal && <ContactModal onClose={closeModal} contactId={modal.contactId} />}
      {csvImport && <CsvImportDialog onClose={() => setCsvImport(false)} />}
      <ConfirmDialog
        open={!!toDelete.target}
        title={t('contacts.confirmDelete.title', { name: toDelete.target?.name ?? '' })}
        text={t('contacts.confirmDelete.text')}
        confirmLabel={t('common.delete')}
        busy={toDelete.deleting}
        onConfirm={() => void toDelete.confirm()}
        onClose={toDelete.cancel}
      />
      <ConfirmDialog
        open={confirmImport}
        title={t('contacts.confirmImport.title')}
        text={t('contacts.confirmImport.text')}
        confirmLabel={t('contacts.import')}
        busy={busy === 'import'}
        onConfirm={() => void runImport()}
        onClose={() => setConfirmImport(false)}
      />
    </Page>
  );
}
