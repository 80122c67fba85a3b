import { normalizeWhatsappNumber, type WhatsappDto } from '@wadesk/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ChatIcon from '@mui/icons-material/Chat';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { toastError } from '../../services/toast-error';
import { ConnectionStatus } from '../connections/connection-status';
import { useWhatsapps } from '../connections/connections-api';
import { scanQr, useRefreshSimulator, useSimulatorPhone } from './simulator-api';
import { SimulatorChat, type CustomerMessage, type SimulatorChatTarget } from './simulator-chat';

const digits = (s: string) => s.replace(/\D/g, '');
/** The chat id the simulator gives a typed number: a Brazilian number as WhatsApp's id (decision 0031). */
const chatNumber = (s: string) => {
  const typed = digits(s);
  const id = typed.startsWith('55') ? normalizeWhatsappNumber(typed) : null;
  return id?.ok ? id.number : typed;
};
const newGroupId = () => `120363${Date.now()}@g.us`;

function DevicePanel({ whatsapps, selected, onSelect }: { whatsapps: WhatsappDto[]; selected: WhatsappDto; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const { data: phone } = useSimulatorPhone(selected.id);
  const refresh = useRefreshSimulator();
  const [scanning, setScanning] = useState(false);

  const scan = () => {
    setScanning(true);
    scanQr(selected.id)
      .then(() => refresh(selected.id))
      .catch(toastError)
      .finally(() => setScanning(false));
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack spacing={1.5}>
        <FormControl fullWidth size="small">
          <InputLabel id="simulator-connection-label">{t('simulator.connection')}</InputLabel>
          <Select
            labelId="simulator-connection-label"
            label={t('simulator.connection')}
            value={String(selected.id)}
            onChange={(e) => onSelect(Number(e.target.value))}
          >
            {whatsapps.map((w) => (
              <MenuItem key={w.id} value={String(w.id)}>
                {w.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <ConnectionStatus status={selected.status} />
          {phone?.number && selected.status === 'CONNECTED' && (
            <Typography variant="caption" color="text.secondary">
              {t('simulator.deviceNumber', { number: phone.number })}
            </Typography>
          )}
        </Stack>
        {selected.status === 'qrcode' && (
          <Button
            variant="contained"
            color="warning"
            size="large"
            startIcon={<QrCodeScannerIcon />}
            onClick={scan}
            disabled={scanning}
            fullWidth
          >
            {t('simulator.scan')}
          </Button>
        )}
        {selected.status !== 'CONNECTED' && selected.status !== 'qrcode' && (
          <Alert severity="info" sx={{ py: 0 }}>
            {t('simulator.notReady')}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function CustomerPanel({
  whatsappId,
  target,
  onTarget,
}: {
  whatsappId: number;
  target: SimulatorChatTarget | null;
  onTarget: (target: SimulatorChatTarget) => void;
}) {
  const { t } = useTranslation();
  const { data: phone } = useSimulatorPhone(whatsappId);
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [groupMode, setGroupMode] = useState(false);
  const [group, setGroup] = useState<{ id: string; name: string }>({ id: newGroupId(), name: '' });
  const numberValid = digits(number).length >= 8 && digits(number).length <= 30;
  // The simulator's own rule: a number ending in 0000 is "not on WhatsApp", so every reply to it fails.
  const notOnWhatsapp = numberValid && digits(number).endsWith('0000');
  const contacts = phone?.contacts ?? [];
  const groups = phone?.groups ?? [];

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (!numberValid) return;
    if (groupMode && !group.name.trim()) return;
    onTarget({ number: chatNumber(number), name: name.trim(), group: groupMode ? { id: group.id, name: group.name.trim() } : undefined });
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('simulator.customer.title')}
      </Typography>
      {contacts.length > 0 && (
        <List dense disablePadding sx={{ maxHeight: 180, overflowY: 'auto', mb: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }} aria-label={t('simulator.customer.known')}>
          {contacts.map((c) => (
            <ListItemButton
              key={c.number}
              selected={!target?.group && target?.number === c.number}
              onClick={() => {
                setNumber(c.number);
                setName(c.name ?? '');
                setGroupMode(false);
                onTarget({ number: c.number, name: c.name ?? '' });
              }}
            >
              <ListItemText primary={c.name || c.number} secondary={c.name ? c.number : undefined} />
            </ListItemButton>
          ))}
        </List>
      )}
      {contacts.length > 0 && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
          {t('simulator.customer.orNew')}
        </Typography>
      )}
      <Alert severity="info" icon={false} sx={{ mb: 1.5, py: 0, '& .MuiAlert-message': { typography: 'caption' } }} data-testid="simulator-rule">
        {t('simulator.customer.rule')}
      </Alert>
      <Box component="form" onSubmit={start} noValidate>
        <Stack spacing={1.5}>
          <TextField
            size="small"
            label={t('simulator.customer.number')}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            inputMode="tel"
            error={number !== '' && !numberValid}
            color={notOnWhatsapp ? 'warning' : undefined}
            focused={notOnWhatsapp || undefined}
            helperText={
              number !== '' && !numberValid
                ? t('simulator.customer.numberHelp')
                : notOnWhatsapp
                  ? t('simulator.customer.notOnWhatsapp')
                  : undefined
            }
            slotProps={{ formHelperText: { 'data-testid': 'simulator-number-help' } as object }}
          />
          <TextField size="small" label={t('simulator.customer.name')} value={name} onChange={(e) => setName(e.target.value)} />
          <FormControlLabel
            control={<Switch checked={groupMode} onChange={(e) => setGroupMode(e.target.checked)} />}
            label={t('simulator.customer.groupMode')}
          />
          {groupMode && (
            <>
              {groups.length > 0 && (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {groups.map((g) => (
                    <Chip
                      key={g.id}
                      size="small"
                      label={g.subject}
                      color={group.id === g.id ? 'primary' : 'default'}
                      onClick={() => setGroup({ id: g.id, name: g.subject })}
                    />
                  ))}
                </Box>
              )}
              <TextField
                size="small"
                label={t('simulator.customer.groupName')}
                value={group.name}
                onChange={(e) => {
                  const existing = groups.find((g) => g.id === group.id);
                  // Renaming a known group starts a new one.
                  setGroup({ id: existing ? newGroupId() : group.id, name: e.target.value });
                }}
              />
            </>
          )}
          <Button type="submit" variant="outlined" startIcon={<ChatIcon />} disabled={!numberValid || (groupMode && !group.name.trim())}>
            {t('simulator.customer.start')}
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}

export function SimulatorPage() {
  const { t } = useTranslation();
  const { data: all = [], isLoading } = useWhatsapps();
  const [params, setParams] = useSearchParams();
  const whatsapps = all.filter((w) => w.channel === 'simulator').sort((a, b) => a.id - b.id);
  const wanted = Number(params.get('connection'));
  const selected = whatsapps.find((w) => w.id === wanted) ?? whatsapps[0];
  const [target, setTarget] = useState<SimulatorChatTarget | null>(null);
  const [sent, setSent] = useState<Record<string, CustomerMessage[]>>({});

  const chatRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // On narrow screens the chat sits below the pickers: bring it into view when a customer is chosen.
    if (target && window.matchMedia('(max-width: 899px)').matches) chatRef.current?.scrollIntoView({ behavior: 'smooth' });
  }, [target]);

  const chatKey = selected && target ? `${selected.id}|${target.group?.id ?? ''}|${target.number}` : '';

  const select = (id: number) => {
    setParams({ connection: String(id) }, { replace: true });
    setTarget(null);
  };

  return (
    <Page title={t('pages.simulator')}>
      {!isLoading && !selected ? (
        <EmptyState
          icon={<PhoneAndroidIcon fontSize="large" />}
          title={t('simulator.empty.title')}
          text={t('simulator.empty.text')}
          testId="simulator-empty"
        />
      ) : selected ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '320px 1fr' }, alignItems: 'start' }}>
          <Stack spacing={2}>
            <DevicePanel whatsapps={whatsapps} selected={selected} onSelect={select} />
            <CustomerPanel key={selected.id} whatsappId={selected.id} target={target} onTarget={setTarget} />
          </Stack>
          <Box ref={chatRef} sx={{ minWidth: 0, scrollMarginTop: 64 }}>
            {target ? (
              <SimulatorChat
                key={chatKey}
                whatsappId={selected.id}
                connected={selected.status === 'CONNECTED'}
                target={target}
                sent={sent[chatKey] ?? []}
                onSentChange={(update) => setSent((all) => ({ ...all, [chatKey]: update(all[chatKey] ?? []) }))}
              />
            ) : (
              <EmptyState icon={<ChatIcon fontSize="large" />} title={t('simulator.noChat.title')} text={t('simulator.noChat.text')} />
            )}
          </Box>
        </Box>
      ) : null}
      {!isLoading && !selected && (
        <Box sx={{ mt: 2, textAlign: 'center' }}>
          <Button component={RouterLink} to="/connections">
            {t('simulator.empty.toConnections')}
          </Button>
        </Box>
      )}
    </Page>
  );
}
