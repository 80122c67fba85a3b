import { zodResolver } from '@hookform/resolvers/zod';
import { CONTACT_CSV_IMPORT_MAX_BYTES, type ContactCsvImportResponse, type ContactCsvPreviewRow } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { toastError, toastSuccess } from '../../services/toast-error';
import { SMALL_SCREEN_QUERY } from '../layout/app-layout';
import { CONTACTS_KEY, importContactsCsv } from './contacts-api';

/** Lines shown in the preview: the problems first, then the new contacts. */
const PREVIEW_ROWS = 200;
const ORDER: Record<ContactCsvPreviewRow['status'], number> = { invalid: 0, exists: 1, new: 2 };

/** The server's limit on the file (CONTACT_CSV_IMPORT_MAX_BYTES) checked before it is sent; messages are i18n keys. */
const CsvImportSchema = z.object({
  file: z
    .custom<File>((v) => v instanceof File, 'contacts.csvImport.notCsv')
    .refine((f) => /\.csv$/i.test(f.name) || f.type === 'text/csv', 'contacts.csvImport.notCsv')
    .refine((f) => f.size <= CONTACT_CSV_IMPORT_MAX_BYTES, 'contacts.csvImport.tooLarge'),
});

interface CsvImportValues {
  file: File | null;
}

const resolver = zodResolver(CsvImportSchema) as unknown as Resolver<CsvImportValues>;

/**
 * Imports contacts from a CSV file (the tool contactsImport of attendantTools): choose a file, see what each line would do (new, skipped because
 * the number is a contact, or the errors of the line), then confirm.
 */
export function CsvImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const small = useMediaQuery(SMALL_SCREEN_QUERY, { noSsr: true });
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const form = useForm<CsvImportValues>({ resolver, defaultValues: { file: null } });
  const file = useWatch({ control: form.control, name: 'file' });
  const fileError = form.formState.errors.file?.message;
  const [preview, setPreview] = useState<ContactCsvImportResponse | null>(null);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);

  /** A file chosen: checked against the limits, then described by the server (a dry run) before anything is imported. */
  const choose = async (chosen: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!chosen) return;
    form.setValue('file', chosen);
    setPreview(null);
    if (!(await form.trigger('file'))) return;
    setBusy('preview');
    try {
      setPreview(await importContactsCsv(chosen, true));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const confirm = form.handleSubmit(async ({ file: checked }) => {
    if (!checked) return;
    setBusy('import');
    try {
      const result = await importContactsCsv(checked, false);
      await queryClient.invalidateQueries({ queryKey: [...CONTACTS_KEY, 'list'] });
      toastSuccess(t('contacts.csvImport.done', { created: result.created, skipped: result.skipped, errors: new Set(result.errors.map((e) => e.line)).size }));
      onClose();
    } catch (err) {
      toastError(err);
      setBusy(null);
    }
  });

  const rows = [...(preview?.preview ?? [])].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.line - b.line);
  const invalidLines = rows.filter((r) => r.status === 'invalid').length;

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth fullScreen={small} aria-labelledby="csv-import-title">
      <DialogTitle id="csv-import-title">{t('contacts.csvImport.title')}</DialogTitle>
      <DialogContent dividers data-testid="csv-import-dialog">
        <Stack spacing={2}>
          <Typography variant="body2">{t('contacts.csvImport.help')}</Typography>
          <Alert severity="info">{t('contacts.csvImport.notChecked')}</Alert>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={!!busy}>
              {t('contacts.csvImport.choose')}
              <input
                ref={input}
                hidden
                type="file"
                accept=".csv,text/csv"
                data-testid="csv-import-file"
                onChange={(e) => void choose(e.target.files?.[0])}
              />
            </Button>
            {file && (
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                {file.name}
              </Typography>
            )}
            {fileError && (
              <Typography variant="body2" color="error" role="alert" data-testid="csv-import-file-error" sx={{ flexBasis: '100%' }}>
                {t(fileError, { max: CONTACT_CSV_IMPORT_MAX_BYTES / 1024 / 1024 })}
              </Typography>
            )}
            {busy === 'preview' && <CircularProgress size={20} aria-label={t('common.loading')} />}
          </Stack>
          {preview && (
            <>
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }} data-testid="csv-import-summary">
                <Chip color="success" label={t('contacts.csvImport.toCreate', { count: preview.created })} />
                <Chip label={t('contacts.csvImport.toSkip', { count: preview.skipped })} />
                <Chip color={invalidLines > 0 ? 'error' : 'default'} label={t('contacts.csvImport.withErrors', { count: invalidLines })} />
              </Stack>
              <TableContainer sx={{ maxHeight: small ? 'none' : 360, border: 1, borderColor: 'divider', borderRadius: 1 }}>
                <Table stickyHeader size="small" aria-label={t('contacts.csvImport.preview')} data-testid="csv-import-preview">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('contacts.csvImport.line')}</TableCell>
                      <TableCell>{t('contacts.fields.name')}</TableCell>
                      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('contacts.fields.number')}</TableCell>
                      <TableCell>{t('contacts.csvImport.status')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {rows.slice(0, PREVIEW_ROWS).map((row) => (
                      <TableRow key={row.line} data-testid="csv-import-row" data-status={row.status}>
                        <TableCell>{row.line}</TableCell>
                        <TableCell sx={{ overflowWrap: 'anywhere' }}>
                          {row.name}
                          <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { xs: 'block', sm: 'none' } }}>
                            {row.number}
                          </Typography>
                        </TableCell>
                        <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, overflowWrap: 'anywhere' }}>{row.number}</TableCell>
                        <TableCell sx={{ color: row.status === 'invalid' ? 'error.main' : row.status === 'exists' ? 'text.secondary' : 'success.main' }}>
                          {row.status === 'new'
                            ? t('contacts.csvImport.statusNew')
                            : row.reasons.map((reason) => t(`contacts.csvImport.reasons.${reason}`)).join('; ')}
                        </TableCell>
                      </TableRow>
                    ))}
                    {rows.length === 0 && (
                      <TableRow>
                        <TableCell colSpan={4} align="center" sx={{ color: 'text.secondary' }}>
                          {t('contacts.csvImport.noLines')}
                        </TableCell>
                      </TableRow>
                    )}
                  </TableBody>
                </Table>
              </TableContainer>
              {rows.length > PREVIEW_ROWS && (
                <Typography variant="caption" color="text.secondary">
                  {t('contacts.csvImport.more', { count: rows.length - PREVIEW_ROWS })}
                </Typography>
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={!!busy}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void confirm()}
          disabled={!preview || preview.created === 0 || !!busy}
          startIcon={busy === 'import' ? <CircularProgress size={16} /> : undefined}
        >
          {t('contacts.csvImport.confirm', { count: preview?.created ?? 0 })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
