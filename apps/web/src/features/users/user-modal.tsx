import { zodResolver } from '@hookform/resolvers/zod';
import {
  isAdmin,
  PROFILES,
  UserCreateInput,
  UserUpdateInput,
  type Profile,
  type UserDto,
} from '@wadesk/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { translateValidation } from '../../i18n/validation-message';
import { toastError, toastSuccess } from '../../services/toast-error';
import { useAuth } from '../auth/auth-context';
import { PasswordField } from '../auth/password-field';
import { useWhatsapps } from '../layout/use-connections-attention';
import { createUser, updateUser, useApplyUserChange, useQueues, useUser } from './users-api';

export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  whatsappId: number | null;
  queueIds: number[];
}

const EMPTY: UserFormValues = { name: '', email: '', password: '', profile: 'user', whatsappId: null, queueIds: [] };

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
  const { data: queues = [] } = useQueues(adminFields);
  const { data: whatsapps = [] } = useWhatsapps();
  const applyChange = useApplyUserChange();

  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues>({ resolver: editing ? updateResolver : createResolver, defaultValues: EMPTY });

  useEffect(() => {
    if (existing) reset(toFormValues(existing));
  }, [existing, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const base = { name: values.name, email: values.email };
    try {
      let saved: UserDto;
      if (editing) {
        const password = values.password ? { password: values.password } : {};
        const admin = adminFields
          ? { profile: values.profile, whatsappId: values.whatsappId, queueIds: values.queueIds }
          : {};
        saved = await updateUser(userId, { ...base, ...password, ...admin });
      } else {
        saved = await createUser({
          ...base,
          password: values.password,
          profile: values.profile,
          whatsappId: values.whatsappId,
          queueIds: values.queueIds,
        });
      }
      applyChange({ action: editing ? 'update' : 'create', user: saved });
      toastSuccess(t('users.saved'));
      onClose();
    } catch (err) {
      toastError(err);
    }
  });

  const title = ownProfile ? t('users.modal.profileTitle') : editing ? t('users.modal.editTitle') : t('users.modal.addTitle');

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="user-modal-title">
      <DialogTitle id="user-modal-title">{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} data-testid="user-modal">
        <DialogContent dividers>
          {editing && isLoading ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
              <CircularProgress />
            </Box>
          ) : (
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('users.fields.name')}
                  autoFocus
                  fullWidth
                  {...register('name')}
                  error={!!errors.name}
                  helperText={translateValidation(t, errors.name?.message)}
                />
                <PasswordField
                  label={t('users.fields.password')}
                  autoComplete="new-password"
                  fullWidth
                  {...register('password')}
                  error={!!errors.password}
                  helperText={
                    translateValidation(t, errors.password?.message) ??
                    (editing ? t('users.fields.passwordKeep') : undefined)
                  }
                />
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('users.fields.email')}
                  type="email"
                  fullWidth
                  {...register('email')}
                  error={!!errors.email}
                  helperText={translateValidation(t, errors.email?.message)}
                />
                {adminFields && (
                  <Controller
                    name="profile"
                    control={control}
                    render={({ field }) => (
                      <FormControl fullWidth>
                        <InputLabel id="user-profile-label">{t('users.fields.profile')}</InputLabel>
                        <Select
                          labelId="user-profile-label"
                          label={t('users.fields.profile')}
                          value={field.value}
                          onChange={(e) => field.onChange(e.target.value)}
                          onBlur={field.onBlur}
                        >
                          {PROFILES.map((p) => (
                            <MenuItem key={p} value={p}>
                              {t(`users.profiles.${p}`)}
                            </MenuItem>
                          ))}
                        </Select>
                      </FormControl>
                    )}
                  />
                )}
              </Stack>
              {adminFields && (
                <Controller
                  name="queueIds"
                  control={control}
                  render={({ field }) => (
                    <FormControl fullWidth>
                      <InputLabel id="user-queues-label">{t('users.fields.queues')}</InputLabel>
                      <Select<number[]>
                        multiple
                        labelId="user-queues-label"
                        label={t('users.fields.queues')}
                        value={field.value}
                        onChange={(e) => {
                          const v = e.target.value;
                          field.onChange(typeof v === 'string' ? v.split(',').map(Number) : v);
                        }}
                        renderValue={(selected) => (
                          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                            {selected.map((id) => {
                              const queue = queues.find((q) => q.id === id);
                              return (
                                <Chip
                                  key={id}
                                  size="small"
                                  label={queue?.name ?? `#${id}`}
                                  sx={{ bgcolor: queue?.color, color: 'common.white' }}
                                />
                              );
                            })}
                          </Box>
                        )}
                      >
                        {queues.length === 0 && (
                          <MenuItem disabled value={-1}>
                            {t('users.fields.noQueues')}
                          </MenuItem>
                        )}
                        {queues.map((q) => (
                          <MenuItem key={q.id} value={q.id}>
                            <Box
                              component="span"
                              sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: q.color, mr: 1, flexShrink: 0 }}
                            />
                            {q.name}
                          </MenuItem>
                        ))}
                      </Select>
                    </FormControl>
                  )}
                />
              )}
              {adminFields && (
                <Controller
                  name="whatsappId"
                  control={control}
                  render={({ field }) => (
                    <FormControl fullWidth>
                      <InputLabel id="user-whatsapp-label">{t('users.fields.connection')}</InputLabel>
                      <Select
                        labelId="user-whatsapp-label"
                        label={t('users.fields.connection')}
                        value={field.value === null ? '' : String(field.value)}
                        onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
                      >
                        <MenuItem value="">
                          <em>{t('users.fields.noConnection')}</em>
                        </MenuItem>
                        {whatsapps.map((w) => (
                          <MenuItem key={w.id} value={String(w.id)}>
                            {w.name}
                          </MenuItem>
                        ))}
                      </Select>
                    </FormControl>
                  )}
                />
              )}
            </Stack>
          )}
        </DialogContent>
        <FormDialogActions onCancel={onClose} submitting={isSubmitting} editing={editing} disabled={editing && isLoading} />
      </Box>
    </Dialog>
  );
}
