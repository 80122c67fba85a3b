import type { SessionStatus, SimulatorInboundInput, SimulatorOutboxItemDto } from '@wadesk/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../services/api';
import { useSocketEvent } from '../../services/socket';

/** What `GET /api/simulator/:id/contacts` answers: the simulated phone and the chats it knows. */
export interface SimulatorPhoneDto {
  status: SessionStatus;
  qrcode: string;
  number: string;
  contacts: { number: string; name: string | null; lastAt: string }[];
  groups: { id: string; subject: string; participants: { number: string; isAdmin: boolean }[] }[];
}

const SIMULATOR_KEY = ['simulator'] as const;

/** The desk's replies are polled this often (and fetched at once on `appMessage`). */
const OUTBOX_POLL_MS = 1500;

export function useSimulatorPhone(whatsappId: number | null) {
  return useQuery({
    queryKey: [...SIMULATOR_KEY, whatsappId, 'phone'],
    enabled: whatsappId !== null,
    meta: { silent: true },
    staleTime: 0,
    refetchInterval: 5000,
    queryFn: async () => (await api.get<SimulatorPhoneDto>(`/simulator/${whatsappId}/contacts`)).data,
  });
}

export function useOutbox(whatsappId: number | null, to: string | null) {
  const queryClient = useQueryClient();
  const key = [...SIMULATOR_KEY, whatsappId, 'outbox', to];
  useSocketEvent('appMessage', (e) => {
    if (e.message.fromMe) void queryClient.invalidateQueries({ queryKey: key });
  });
  return useQuery({
    queryKey: key,
    enabled: whatsappId !== null && !!to,
    meta: { silent: true },
    staleTime: 0,
    refetchInterval: OUTBOX_POLL_MS,
    queryFn: async () =>
      (await api.get<SimulatorOutboxItemDto[]>(`/simulator/${whatsappId}/outbox`, { params: { to } })).data,
  });
}

export function useRefreshSimulator() {
  const queryClient = useQueryClient();
  return (whatsappId: number) => queryClient.invalidateQueries({ queryKey: [...SIMULATOR_KEY, whatsappId] });
}

export async function scanQr(whatsappId: number): Promise<void> {
  await api.post(`/simulator/${whatsappId}/scan`);
}

export async function sendInbound(whatsappId: number, input: SimulatorInboundInput): Promise<{ id: string }> {
  return (await api.post<{ id: string }>(`/simulator/${whatsappId}/inbound`, input)).data;
}

export async function setAck(whatsappId: number, id: string, ack: number): Promise<void> {
  await api.post(`/simulator/${whatsappId}/ack`, { id, ack });
}
