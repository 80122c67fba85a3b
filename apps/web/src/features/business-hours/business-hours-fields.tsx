import type { BusinessHoursDto } from '@wadesk/contracts';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Controller, get, type FieldError, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form-text-field';
import { translateValidation } from '../../i18n/validation-message';

/** The fields a form with a schedule has (queue and connection dialogs, issue 36 §3). */
export interface BusinessHoursFormValues {
  businessHours: BusinessHoursDto | null;
  outOfHoursMessage: string;
}

/** Monday first, as the week reads on a desk's wall. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** The browser's time zone: the one a new schedule starts with. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A new schedule: Monday to Friday, 09:00–18:00, in the browser's zone. */
export function defaultBusinessHours(): BusinessHoursDto {
  return { timeZone: browserTimeZone(), days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '18:00' })), holidays: [] };
}

function timeZones(): string[] {
  const withSupported = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = withSupported.supportedValuesOf?.('timeZone') ?? [];
  return [...new Set(['UTC', browserTimeZone(), ...zones])].sort();
}

function weekdayName(weekday: number, language: string): string {
  // 2026-11-29 was a Sunday (weekday 0).
  const name = new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 10, 29 + weekday)));
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

export interface BusinessHoursFieldsProps<V extends FieldValues & BusinessHoursFormValues> {
  form: UseFormReturn<V>;
}

/**
 * The "Business hours" section of a dialog: off = always open (null); on = weekday rows with their intervals, the
 * time zone (the browser's by default), closed days, and the out-of-hours message sent once per closed period.
 */
export function BusinessHoursFields<V extends FieldValues & BusinessHoursFormValues>({ form }: BusinessHoursFieldsProps<V>) {
  const { t, i18n } = useTranslation();
  const zones = useMemo(timeZones, []);
  const [holiday, setHoliday] = useState('');
  const name = 'businessHours' as Path<V>;
  const errorOf = (path: string) => translateValidation(t, (get(form.formState.errors, `businessHours.${path}`) as FieldError | undefined)?.message);

  return (
    <Box data-testid="business-hours" component="section" aria-labelledby="business-hours-title">
      <Divider sx={{ mb: 1.5 }} />
      <Controller
        name={name}
        control={form.control}
        render={({ field }) => {
          const hours = field.value as BusinessHoursDto | null;
          const change = (next: BusinessHoursDto | null) => field.onChange(next);
          const setDays = (days: BusinessHoursDto['days']) => hours && change({ ...hours, days });
          return (
            <Stack spacing={1.5}>
              <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
                <Typography id="business-hours-title" variant="subtitle1" component="h3">
                  {t('businessHours.title')}
                </Typography>
                <FormControlLabel
                  sx={{ mr: 0 }}
                  control={
                    <Switch
                      checked={hours !== null}
                      onChange={(e) => change(e.target.checked ? defaultBusinessHours() : null)}
                      slotProps={{ input: { 'aria-describedby': 'business-hours-state' } }}
                      data-testid="business-hours-switch"
                    />
                  }
                  label={t('businessHours.setHours')}
                />
              </Stack>
              <Typography id="business-hours-state" variant="body2" color="text.secondary">
                {hours ? t('businessHours.scheduleHelp') : t('businessHours.alwaysOpen')}
              </Typography>
              {hours && (
                <>
                  <Autocomplete
                    data-testid="business-hours-zone"
                    options={zones}
                    value={hours.timeZone}
                    disableClearable
                    onChange={(_, value) => change({ ...hours, timeZone: value })}
                    renderInput={(params) => (
                      <TextField {...params} label={t('businessHours.timeZone')} error={!!errorOf('timeZone')} helperText={errorOf('timeZone')} />
                    )}
                  />
                  <Stack spacing={1} data-testid="business-hours-days">
                    {WEEK.map((weekday) => {
                      const indexes = hours.days.flatMap((d, i) => (d.weekday === weekday ? [i] : []));
                      const dayName = weekdayName(weekday, i18n.language);
                      return (
                        <Stack
                          key={weekday}
                          direction={{ xs: 'column', sm: 'row' }}
                          spacing={1}
                          sx={{ alignItems: { sm: 'flex-start' } }}
                          data-testid={`business-hours-day-${weekday}`}
                        >
                          <Typography sx={{ width: { sm: 120 }, flexShrink: 0, pt: { sm: 1 } }}>{dayName}</Typography>
                          <Stack spacing={1} sx={{ flex: 1 }}>
                            {indexes.length === 0 && (
                              <Typography variant="body2" color="text.secondary" sx={{ pt: { sm: 1 } }}>
                                {t('businessHours.closed')}
                              </Typography>
                            )}
                            {indexes.map((index) => {
                              const interval = hours.days[index]!;
                              const edit = (key: 'start' | 'end', value: string) =>
                                setDays(hours.days.map((d, i) => (i === index ? { ...d, [key]: value } : d)));
                              return (
                                <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                                  {(['start', 'end'] as const).map((key) => (
                                    <TextField
                                      key={key}
                                      size="small"
                                      label={t(`businessHours.${key}`)}
                                      value={interval[key]}
                                      onChange={(e) => edit(key, e.target.value)}
                                      placeholder="09:00"
                                      error={!!errorOf(`days.${index}.${key}`)}
                                      helperText={errorOf(`days.${index}.${key}`)}
                                      sx={{ width: 120 }}
                                      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, 'aria-label': `${dayName} ${t(`businessHours.${key}`)}`, 'data-testid': `interval-${weekday}-${key}` } }}
                                    />
                                  ))}
                                  <IconButton
                                    aria-label={t('businessHours.removeInterval', { day: dayName })}
                                    onClick={() => setDays(hours.days.filter((_, i) => i !== index))}
                                    sx={{ mt: 0.25 }}
                                  >
                                    <CloseIcon fontSize="small" />
                                  </IconButton>
                                </Stack>
                              );
                            })}
                            <Box>
                              <Button
                                size="small"
                                startIcon={<AddIcon />}
                                aria-label={t('businessHours.addIntervalTo', { day: dayName })}
                                onClick={() => {
                                  const last = indexes.length > 0 ? hours.days[indexes.at(-1)!]! : null;
                                  const next = last ? { weekday, start: last.end === '24:00' ? '23:00' : last.end, end: '24:00' } : { weekday, start: '09:00', end: '18:00' };
                                  setDays([...hours.days, next]);
                                }}
                              >
                                {t('businessHours.addInterval')}
                              </Button>
                            </Box>
                          </Stack>
                        </Stack>
                      );
                    })}
                  </Stack>
                  <Typography variant="caption" color="text.secondary">
                    {t('businessHours.nightShiftHelp')}
                  </Typography>
                  <Stack spacing={1}>
                    <Typography variant="subtitle2">{t('businessHours.holidays')}</Typography>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                      <TextField
                        size="small"
                        type="date"
                        label={t('businessHours.holiday')}
                        value={holiday}
                        onChange={(e) => setHoliday(e.target.value)}
                        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'holiday-date' } }}
                      />
                      <Button
                        variant="outlined"
                        disabled={!/^\d{4}-\d{2}-\d{2}$/.test(holiday) || hours.holidays.includes(holiday)}
                        onClick={() => {
                          change({ ...hours, holidays: [...hours.holidays, holiday].sort() });
                          setHoliday('');
                        }}
                      >
                        {t('businessHours.addHoliday')}
                      </Button>
                    </Stack>
                    {hours.holidays.length === 0 ? (
                      <Typography variant="body2" color="text.secondary">
                        {t('businessHours.noHolidays')}
                      </Typography>
                    ) : (
                      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} data-testid="holiday-list">
                        {hours.holidays.map((day) => (
                          <Chip key={day} label={day} onDelete={() => change({ ...hours, holidays: hours.holidays.filter((d) => d !== day) })} />
                        ))}
                      </Stack>
                    )}
                  </Stack>
                </>
              )}
            </Stack>
          );
        }}
      />
      <Box sx={{ mt: 2 }}>
        <FormTextField
          form={form}
          name={'outOfHoursMessage' as Path<V>}
          label={t('businessHours.message')}
          multiline
          minRows={2}
          maxRows={6}
          helperText={t('businessHours.messageHelp', { placeholder: '{{name}}' })}
          slotProps={{ htmlInput: { 'data-testid': 'out-of-hours-message' } }}
        />
      </Box>
    </Box>
  );
}
