import type { WhatsappDto } from '@wadesk/contracts';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWhatsapps } from './connections-api';

/** The connection a tool page works on: the one picked, else the default connection, else the first; null without any. */
export function useChosenConnection(): { connections: WhatsappDto[]; whatsappId: number | null; choose: (id: number) => void } {
  const { data: connections = [] } = useWhatsapps();
  const [chosen, choose] = useState<number | null>(null);
  const whatsappId = chosen ?? connections.find((c) => c.isDefault)?.id ?? connections[0]?.id ?? null;
  return { connections, whatsappId, choose };
}

/** A select of the connections with their states, for a tool page (groups, history import). */
export function ConnectionPicker({ connections, whatsappId, onChange, testId }: { connections: WhatsappDto[]; whatsappId: number | null; onChange: (id: number) => void; testId: string }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <FormControl fullWidth>
      <InputLabel id={labelId}>{t('campaigns.fields.connection')}</InputLabel>
      <Select
        labelId={labelId}
        label={t('campaigns.fields.connection')}
        value={whatsappId === null ? '' : String(whatsappId)}
        onChange={(e) => onChange(Number(e.target.value))}
        data-testid={testId}
      >
        {connections.map((c) => (
          <MenuItem key={c.id} value={String(c.id)}>
            {c.name} ({t(`connections.status.${c.status}`)})
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
