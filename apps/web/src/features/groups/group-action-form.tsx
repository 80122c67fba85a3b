import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import {
  CAMPAIGN_BLOCK_ADVICE,
  GROUP_ACTION_FIELDS,
  GROUP_ACTION_KINDS,
  GROUP_CONFIRMATION,
  MAX_CAMPAIGN_INTERVAL,
  groupActionFieldProblems,
  type GroupActionField,
  type GroupActionInput,
  type GroupActionKind,
  type GroupActionStartedResponse,
} from '@wadesk/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import { errorMessage, toastError, toastSuccess } from '../../services/toast-error';
import { startGroupAction } from './groups-api';

type Values = Record<GroupActionField, string>;

const EMPTY: Values = { subject: '', description: '', title: '', participants: '', confirmation: '', message: '', minInterval: '5', maxInterval: '15' };

/** The fields each tab shows, in order. */
function fieldsOf(kind: GroupActionKind): GroupActionField[] {
  const rule = GROUP_ACTION_FIELDS[kind];
  return [...(rule.oneOf ?? []), ...rule.required];
}

export interface GroupActionFormProps {
  whatsappId: number | null;
  onStarted: (started: GroupActionStartedResponse) => void;
}

/**
 * The six tabs of /ZDGGroups (§2), each with its own fields. An action runs only when exactly its fitting fields
 * are filled (§5); otherwise the alert, and nothing is sent. The server checks the same rule.
 */
export function GroupActionForm({ whatsappId, onStarted }: GroupActionFormProps) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<GroupActionKind>('update');
  const [wrongFields, setWrongFields] = useState(false);
  const form = useForm<Values>({ defaultValues: EMPTY });
  const fields = fieldsOf(kind);

  const submit = form.handleSubmit(async (values) => {
    // Only this tab's fields are sent: what another tab holds is not part of this action.
    const input: GroupActionInput = { action: kind, whatsappId: whatsappId ?? undefined };
    for (const field of fields) {
      const value = values[field].trim();
      if (value !== '') (input as Record<string, unknown>)[field] = value;
    }
    if (groupActionFieldProblems(input).length > 0) {
      setWrongFields(true);
      return;
    }
    setWrongFields(false);
    try {
      const started = await startGroupAction(input);
      toastSuccess(t('groups.started'));
      form.reset({ ...EMPTY, minInterval: values.minInterval, maxInterval: values.maxInterval });
      onStarted(started);
    } catch (err) {
      if (errorMessage(err).code === 'ERR_GROUP_ACTION_FIELDS') setWrongFields(true);
      else toastError(err);
    }
  });

  const label = (field: GroupActionField) =>
    field === 'confirmation' ? t('groups.fields.confirmation', { word: GROUP_CONFIRMATION[kind as 'open' | 'close'] }) : t(`groups.fields.${kind === 'update' || kind === 'create' ? `${kind}.` : ''}${field}`);

  return (
    <Stack spacing={2}>
      {/* Six tabs, all in sight: they wrap onto a second line rather than scroll out of view. */}
      <Tabs
        value={kind}
        onChange={(_e, value: GroupActionKind) => {
          setKind(value);
          setWrongFields(false);
        }}
        aria-label={t('groups.tabsLabel')}
        slotProps={{ indicator: { sx: { display: 'none' } } }}
        sx={{ minHeight: 0, '& .MuiTabs-list': { flexWrap: 'wrap', gap: 1 } }}
      >
        {GROUP_ACTION_KINDS.map((k) => (
          <Tab
            key={k}
            value={k}
            label={t(`groups.tabs.${k}`)}
            data-testid={`groups-tab-${k}`}
            sx={{
              minWidth: 0,
              minHeight: 36,
              px: 1.5,
              py: 0.5,
              textTransform: 'none',
              border: 1,
              borderColor: 'divider',
              borderRadius: 4,
              '&.Mui-selected': { bgcolor: 'primary.main', color: 'primary.contrastText', borderColor: 'primary.main' },
            }}
          />
        ))}
      </Tabs>
      <Stack component="form" spacing={2} onSubmit={(e) => void submit(e)} noValidate data-testid="group-action-form">
        <Alert severity="info" variant="outlined">
          {t(`groups.help.${kind}`)}
        </Alert>
        {fields
          .filter((f) => f !== 'minInterval' && f !== 'maxInterval')
          .map((field) => (
            <FormTextField
              key={`${kind}-${field}`}
              form={form}
              name={field}
              label={label(field)}
              multiline={field === 'message' || field === 'participants' || field === 'description'}
              minRows={field === 'participants' || field === 'message' ? 4 : field === 'description' ? 2 : undefined}
              maxRows={12}
              placeholder={field === 'participants' ? '5511987654321\n5521987654321' : field === 'confirmation' ? GROUP_CONFIRMATION[kind as 'open' | 'close'] : undefined}
              helperText={field === 'participants' ? t('groups.fields.participantsHelp') : undefined}
              slotProps={{ htmlInput: { 'data-testid': `group-field-${field}` } }}
            />
          ))}
        {kind === 'privateMessage' && (
          <>
            <Stack direction="row" spacing={2}>
              <FormTextField
                form={form}
                name="minInterval"
                label={t('campaigns.fields.minInterval')}
                type="number"
                slotProps={{ htmlInput: { min: 0, max: MAX_CAMPAIGN_INTERVAL, 'data-testid': 'group-field-minInterval' } }}
              />
              <FormTextField
                form={form}
                name="maxInterval"
                label={t('campaigns.fields.maxInterval')}
                type="number"
                slotProps={{ htmlInput: { min: 0, max: MAX_CAMPAIGN_INTERVAL, 'data-testid': 'group-field-maxInterval' } }}
              />
            </Stack>
            <Alert severity="info">{t('campaigns.blockAdvice', { count: CAMPAIGN_BLOCK_ADVICE })}</Alert>
          </>
        )}
        {wrongFields && (
          <Alert severity="error" role="alert" data-testid="group-fields-alert" onClose={() => setWrongFields(false)}>
            {t('errors.ERR_GROUP_ACTION_FIELDS')}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          startIcon={<PlayArrowIcon />}
          disabled={form.formState.isSubmitting || whatsappId === null}
          data-testid="group-action-run"
        >
          {t(`groups.run.${kind}`)}
        </Button>
      </Stack>
    </Stack>
  );
}
