import { can, CONTACT_SEARCH_MIN_LENGTH, type ContactDto } from '@wadesk/contracts';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import ImportContactsIcon from '@mui/icons-material/ImportContacts';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { HEADER_BUTTON_SX, ListPage } from '../../components/list-page';
import { useListSearch } from '../../hooks/use-list-search';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { LabelChip } from '../labels/label-chips';
import { useToolAccess } from '../settings/use-tool-access';
import { ContactModal } from './contact-modal';
import { CsvImportDialog } from './csv-import-dialog';
import {
  downloadContactsCsv,
  importContacts,
  startTicket,
  useContactActions,
  useContactsList,
  useContactsLiveUpdates,
} from './contacts-api';

export function ContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const mayDelete = can(user?.profile, 'contacts-page:deleteContact');
  // The import (from the device or a CSV file) and the export are tools of the setting attendantTools (issue 32).
  const { may } = useToolAccess();
  const mayExport = may('contactsExport');
  const mayImport = may('contactsImport');
  const mayImportCsv = mayImport;
  const search = useListSearch(CONTACT_SEARCH_MIN_LENGTH);
  const list = useContactsList(search.param);
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
  useContactsLiveUpdates();
  const { remove } = useContactActions();

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
    <ListPage
      title={t('pages.contacts')}
      search={search}
      actions={
        <>
          {mayImport && (
            <Button
              variant="outlined"
              startIcon={<ImportContactsIcon />}
              onClick={() => setConfirmImport(true)}
              disabled={busy === 'import'}
              sx={HEADER_BUTTON_SX}
            >
              {t('contacts.import')}
            </Button>
          )}
          {mayImportCsv && (
            <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setCsvImport(true)} sx={HEADER_BUTTON_SX}>
              {t('contacts.importCsv')}
            </Button>
          )}
          {mayExport && (
            <Button
              variant="outlined"
              startIcon={busy === 'export' ? <CircularProgress size={16} /> : <DownloadIcon />}
              onClick={() => void run('export', downloadContactsCsv)}
              disabled={busy === 'export'}
              sx={HEADER_BUTTON_SX}
            >
              {t('contacts.export')}
            </Button>
          )}
        </>
      }
      add={{ label: t('contacts.add'), onClick: () => setModal({}) }}
    >
      <DataTable
        rows={list.data ?? []}
        columns={[
          {
            header: t('contacts.fields.avatar'),
            headerHidden: true,
            padding: 'checkbox',
            sx: { pl: { xs: 1, sm: 2 } },
            cell: (contact) => (
              <Avatar src={contact.profilePicUrl || undefined} alt="" sx={{ width: 32, height: 32 }}>
                {contact.name.charAt(0).toUpperCase()}
              </Avatar>
            ),
          },
          {
            header: t('contacts.fields.name'),
            sx: { overflowWrap: 'anywhere' },
            cell: (contact) => (
              <>
                {contact.name}
                {contact.labels.length > 0 && (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.25 }} data-testid="contact-row-labels">
                    {contact.labels.map((label) => (
                      <LabelChip key={label.id} label={label} />
                    ))}
                  </Box>
                )}
                {/* On phones the number column is hidden: the number goes under the name. */}
                <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { xs: 'block', sm: 'none' } }}>
                  {contact.number}
                </Typography>
              </>
            ),
          },
          { header: t('contacts.fields.number'), showFrom: 'sm', sx: { whiteSpace: 'nowrap' }, cell: (contact) => contact.number },
          { header: t('contacts.fields.email'), showFrom: 'md', sx: { wordBreak: 'break-all' }, cell: (contact) => contact.email },
        ]}
        label={t('pages.contacts')}
        testId="contacts-table"
        rowTestId="contact-row"
        loading={list.isLoading}
        emptyText={search.param ? t('contacts.noMatch') : t('contacts.empty')}
        paging={list}
        actions={{
          extra: (contact) => (
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
          ),
          edit: { label: (c) => t('contacts.editContact', { name: c.name }), onClick: (c) => setModal({ contactId: c.id }) },
          delete: mayDelete
            ? {
                label: (c) => t('contacts.deleteContact', { name: c.name }),
                confirmTitle: (c) => t('contacts.confirmDelete.title', { name: c.name }),
                confirmText: t('contacts.confirmDelete.text'),
                remove,
                deletedText: t('contacts.deleted'),
              }
            : undefined,
        }}
      />
      {modal && <ContactModal onClose={closeModal} contactId={modal.contactId} />}
      {csvImport && <CsvImportDialog onClose={() => setCsvImport(false)} />}
      <ConfirmDialog
        open={confirmImport}
        title={t('contacts.confirmImport.title')}
        text={t('contacts.confirmImport.text')}
        confirmLabel={t('contacts.import')}
        busy={busy === 'import'}
        onConfirm={() => void runImport()}
        onClose={() => setConfirmImport(false)}
      />
    </ListPage>
  );
}
