import { zodResolver } from '@hookform/resolvers/zod';
import { QuickAnswerInput, type QuickAnswerDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { translateValidation } from '../../i18n/validation-message';
import { toastError, toastSuccess } from '../../services/toast-error';
import { createQuickAnswer, updateQuickAnswer, useApplyQuickAnswerChange } from './quick-answers-api';

interface QuickAnswerFormValues {
  shortcut: string;
  message: string;
}

const resolver = zodResolver(QuickAnswerInput) as unknown as Resolver<QuickAnswerFormValues>;

export interface QuickAnswerModalProps {
  onClose: () => void;
  /** The quick answer to edit; none means "add one". */
  quickAnswer?: QuickAnswerDto;
}

/** Add or edit a quick answer: shortcut 2–50, message 8–30000 (§5). */
export function QuickAnswerModal({ onClose, quickAnswer }: QuickAnswerModalProps) {
  const { t } = useTranslation();
  const editing = quickAnswer !== undefined;
  const applyChange = useApplyQuickAnswerChange();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<QuickAnswerFormValues>({
    resolver,
    defaultValues: { shortcut: quickAnswer?.shortcut ?? '', message: quickAnswer?.message ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = editing ? await updateQuickAnswer(quickAnswer.id, values) : await createQuickAnswer(values);
      applyChange({ action: editing ? 'update' : 'create', quickAnswer: saved });
      toastSuccess(t('quickAnswers.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby="quick-answer-modal-title">
      <DialogTitle id="quick-answer-modal-title">
        {editing ? t('quickAnswers.modal.editTitle') : t('quickAnswers.modal.addTitle')}
      </DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        data-testid="quick-answer-modal"
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('quickAnswers.fields.shortcut')}
              autoFocus
              fullWidth
              {...register('shortcut')}
              error={!!errors.shortcut}
              helperText={translateValidation(t, errors.shortcut?.message) ?? t('quickAnswers.fields.shortcutHelp')}
            />
            <TextField
              label={t('quickAnswers.fields.message')}
              multiline
              minRows={5}
              maxRows={14}
              fullWidth
              {...register('message')}
              error={!!errors.message}
              helperText={translateValidation(t, errors.message?.message)}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} />
      </Box>
    </Dialog>
  );
}
