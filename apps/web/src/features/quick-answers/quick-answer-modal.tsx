import { zodResolver } from '@hookform/resolvers/zod';
import { QuickAnswerInput, type QuickAnswerDto } from '@wadesk/contracts';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { useQuickAnswerActions } from './quick-answers-api';

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
  const { save } = useQuickAnswerActions();
  const form = useForm<QuickAnswerFormValues>({
    resolver,
    defaultValues: { shortcut: quickAnswer?.shortcut ?? '', message: quickAnswer?.message ?? '' },
  });

  return (
    <FormDialog
      title={editing ? t('quickAnswers.modal.editTitle') : t('quickAnswers.modal.addTitle')}
      testId="quick-answer-modal"
      form={form}
      onSave={(values) => save(quickAnswer?.id, values)}
      savedText={t('quickAnswers.saved')}
      onClose={onClose}
      editing={editing}
    >
      <FormTextField form={form} name="shortcut" label={t('quickAnswers.fields.shortcut')} autoFocus helperText={t('quickAnswers.fields.shortcutHelp')} />
      <FormTextField form={form} name="message" label={t('quickAnswers.fields.message')} multiline minRows={5} maxRows={14} />
    </FormDialog>
  );
}
