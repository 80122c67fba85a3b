import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_QUEUE_COLOR, QueueInput, type ErrorBody, type QueueDto } from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AxiosError } from 'axios';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { translateValidation } from '../../i18n/validation-message';
import { errorMessage, toastError, toastSuccess } from '../../services/toast-error';
import { QueueColorPicker } from './queue-color-picker';
import { createQueue, updateQueue, useApplyQueueChange } from './queues-api';

interface QueueFormValues {
  name: string;
  color: string;
  greetingMessage: string;
}

const resolver = zodResolver(QueueInput) as unknown as Resolver<QueueFormValues>;

/** Server codes that belong to one field: shown under it as well as in the toast. */
const FIELD_ERRORS: Record<string, keyof QueueFormValues> = {
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 'color',
  ERR_QUEUE_NAME_ALREADY_EXISTS: 'name',
};

export interface QueueModalProps {
  onClose: () => void;
  /** The queue to edit; none means "add a queue". */
  queue?: QueueDto;
}

/** Add or edit a queue: name, colour (50 presets or a custom one) and greeting (§5). */
export function QueueModal({ onClose, queue }: QueueModalProps) {
  const { t } = useTranslation();
  const editing = queue !== undefined;
  const applyChange = useApplyQueueChange();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<QueueFormValues>({
    resolver,
    defaultValues: {
      name: queue?.name ?? '',
      color: queue?.color ?? DEFAULT_QUEUE_COLOR,
      greetingMessage: queue?.greetingMessage ?? '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = editing ? await updateQueue(queue.id, values) : await createQueue(values);
      applyChange({ action: editing ? 'update' : 'create', queue: saved });
      toastSuccess(t('queues.saved'));
      onClose();
    } catch (err) {
      toastError(err);
      const code = err instanceof AxiosError ? (err.response?.data as Partial<ErrorBody> | undefined)?.error : undefined;
      const field = code ? FIELD_ERRORS[code] : undefined;
      if (field) setError(field, { message: errorMessage(err).text }, { shouldFocus: field === 'name' });
    }
  });

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth scroll="paper" aria-labelledby="queue-modal-title">
      <DialogTitle id="queue-modal-title">{editing ? t('queues.modal.editTitle') : t('queues.modal.addTitle')}</DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        data-testid="queue-modal"
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <DialogContent dividers>
          <Stack spacing={2.5}>
            <TextField
              label={t('queues.fields.name')}
              autoFocus
              fullWidth
              {...register('name')}
              error={!!errors.name}
              helperText={translateValidation(t, errors.name?.message)}
            />
            <Controller
              name="color"
              control={control}
              render={({ field }) => (
                <QueueColorPicker
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={translateValidation(t, errors.color?.message)}
                />
              )}
            />
            <TextField
              label={t('queues.fields.greeting')}
              multiline
              minRows={3}
              maxRows={10}
              fullWidth
              {...register('greetingMessage')}
              error={!!errors.greetingMessage}
              helperText={translateValidation(t, errors.greetingMessage?.message) ?? t('queues.fields.greetingHelp')}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} />
      </Box>
    </Dialog>
  );
}
