import { zodResolver } from '@hookform/resolvers/zod';
import {
  isAdmin,
  PROFILES,
  UserCreateInput,
  UserUpdateInput,
  type Profile,
  type UserDto,
} from '@wadesk/contracts';
import Stack from '@mui/material/Stack';
import { useEffect } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect } from '../../components/form-select';
import { FormTextField } from '../../components/form-text-field';
import { useAuth } from '../auth/auth-context';
import { PasswordField } from '../auth/password-field';
import { useWhatsapps } from '../layout/use-connections-attention';
import { QueueMultiSelect } from '../queues/queue-multi-select';
import { useUser, useUserActions } from './users-api';
import { MODAL_SUBMIT_DELAY_MS } from '../../services/submit-delay';

export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  whatsappId: number | null;
  queueIds: number[];
  /** Automatic assignment's limit of open tickets (issue 36 §4): 0, no limit. A number field gives text until parsed. */
  maxOpenTickets: number | string;
}

const EMPTY: UserFormValues = { name: '', email: '', password: '', profile: 'user', whatsappId: null, queueIds: [], maxOpenTickets: 0 };

const createResolver = zodResolver(UserCreateInput) as unknown as Resolver<UserFormValues>;
const updateResolver = zodResolver(UserUpdateInput) as unknown as Resolver<UserFormValues>;

function toFormValues(user: UserDto): UserFormValues {
  return {
    name: user.name,
    email: user.email,
    password: '',
    profile: user.profile,
    whatsappId: user.whatsappId,
    queueIds: user.queues.map((q) => q.id),
    maxOpenTickets: user.maxOpenTickets,
  };
}

export interface UserModalProps {
  open: boolean;
  onClose: () => void;
  /** The user to edit; none means "add a user". */
  userId?: number;
  /** The signed-in user's own profile: name, e-mail and password only. */
  ownProfile?: boolean;
}

export function UserModal({ open, onClose, userId, ownProfile = false }: UserModalProps) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const editing = userId !== undefined;
  const adminFields = isAdmin(me) && !ownProfile;
  const { data: existing, isLoading } = useUser(userId);
  const { data: whatsapps = [] } = useWhatsapps();
  const { create, update } = useUserActions();

  const form = useForm<UserFormValues>({ resolver: editing ? updateResolver : createResolver, defaultValues: EMPTY });
  const { reset } = form;

  useEffect(() => {
    if (existing) reset(toFormValues(existing));
  }, [existing, reset]);

  const save = async (values: UserFormValues) => {
    const base = { name: values.name, email: values.email };
    if (editing) {
      const password = values.password ? { password: values.password } : {};
      const admin = adminFields
        ? { profile: values.profile, whatsappId: values.whatsappId, queueIds: values.queueIds, maxOpenTickets: Number(values.maxOpenTickets) }
        : {};
      await update(userId, { ...base, ...password, ...admin });
    } else {
      const { profile, whatsappId, queueIds } = values;
      await create({ ...base, password: values.password, profile, whatsappId, queueIds, maxOpenTickets: Number(values.maxOpenTickets) });
    }
  };

  const title = ownProfile ? t('users.modal.profileTitle') : editing ? t('users.modal.editTitle') : t('users.modal.addTitle');

  return (
    <FormDialog
      submitDelayMs={MODAL_SUBMIT_DELAY_MS}
      open={open}
      title={title}
      testId="user-modal"
      form={form}
      onSave={save}
      savedText={t('users.saved')}
      onClose={onClose}
      editing={editing}
      loading={editing && isLoading}
      fieldErrors={{ ERR_EMAIL_ALREADY_EXISTS: 'email' }}
    >
      {/* Name, E-mail, Password, in the order they are read and typed (issue 33 item 19). */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField form={form} name="name" label={t('users.fields.name')} autoFocus />
        <FormTextField form={form} name="email" label={t('users.fields.email')} type="email" />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField
          form={form}
          name="password"
          as={PasswordField}
          label={t('users.fields.password')}
          autoComplete="new-password"
          helperText={editing ? t('users.fields.passwordKeep') : undefined}
        />
        {adminFields && (
          <FormSelect
            form={form}
            name="profile"
            label={t('users.fields.profile')}
            options={PROFILES.map((p) => ({ value: p, label: t(`users.profiles.${p}`) }))}
          />
        )}
      </Stack>
      {adminFields && (
        <QueueMultiSelect form={form} name="queueIds" label={t('users.fields.queues')} emptyText={t('users.fields.noQueues')} />
      )}
      {adminFields && (
        <FormTextField
          form={form}
          name="maxOpenTickets"
          label={t('autoAssign.maxOpenTickets')}
          helperText={t('autoAssign.maxOpenTicketsHelp')}
          errorText={(message) => (message ? t('autoAssign.maxOpenTicketsError') : undefined)}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: 10000, step: 1, 'data-testid': 'user-max-open-tickets' } }}
        />
      )}
      {adminFields && (
        <FormSelect
          form={form}
          name="whatsappId"
          label={t('users.fields.connection')}
          options={[
            { value: null, label: <em>{t('users.fields.noConnection')}</em> },
            ...whatsapps.map((w) => ({ value: w.id, label: w.name })),
          ]}
        />
      )}
    </FormDialog>
  );
}
