import type {
  BulkMediaFolderDto,
  CampaignCreatedResponse,
  CampaignDto,
  CampaignInput,
  CampaignKind,
  CampaignListResponse,
  CampaignRecipientListResponse,
} from '@wadesk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useRef } from 'react';
import { api, downloadFile } from '../../services/api';
import { isNotOlder, useLiveJob } from '../../services/live-record';
import { useSocketEvent } from '../../services/socket';

export const CAMPAIGNS_KEY = ['campaigns'] as const;

/** Past and present bulk sends, newest first, 20 a page. */
export function useCampaigns() {
  return useInfiniteQuery({
    queryKey: [...CAMPAIGNS_KEY, 'list'],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => (await api.get<CampaignListResponse>('/campaigns', { params: { pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** One campaign, kept current by the socket (and fetched again every few seconds while it sends). */
export function useCampaign(id: number | null) {
  return useLiveJob<CampaignDto>([...CAMPAIGNS_KEY, 'one', id], id === null ? null : `/campaigns/${id}`);
}

/** The folder whose files /ZDGMedia2 may send (asked only on that page): its label, and for admins its path. */
export function useMediaFolder(enabled: boolean): BulkMediaFolderDto | undefined {
  const query = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'media-folder'],
    enabled,
    queryFn: async () => (await api.get<BulkMediaFolderDto>('/campaigns/media-folder')).data,
  });
  return query.data;
}

export function useRecipients(id: number | null) {
  return useInfiniteQuery({
    queryKey: [...CAMPAIGNS_KEY, 'recipients', id],
    enabled: id !== null,
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (await api.get<CampaignRecipientListResponse>(`/campaigns/${id}/recipients`, { params: { pageNumber: pageParam } })).data,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export async function startCampaign(input: CampaignInput): Promise<CampaignCreatedResponse> {
  return (await api.post<CampaignCreatedResponse>('/campaigns', input)).data;
}

export async function campaignAction(id: number, action: 'pause' | 'resume' | 'cancel'): Promise<CampaignDto> {
  return (await api.post<CampaignDto>(`/campaigns/${id}/${action}`)).data;
}

/** Downloads a campaign's recipients with their outcome (CSV). */
export async function downloadRecipientsCsv(id: number): Promise<void> {
  await downloadFile(`/campaigns/${id}/recipients.csv`, `campaign-${id}.csv`);
}

/** Puts a campaign into the caches (its own, and the list where it is or at the top), unless a later copy is there. */
export function useApplyCampaign() {
  const queryClient = useQueryClient();
  return (campaign: CampaignDto) => {
    if (!isNotOlder(campaign, queryClient.getQueryData<CampaignDto>([...CAMPAIGNS_KEY, 'one', campaign.id]))) return;
    queryClient.setQueryData([...CAMPAIGNS_KEY, 'one', campaign.id], campaign);
    queryClient.setQueryData<InfiniteData<CampaignListResponse>>([...CAMPAIGNS_KEY, 'list'], (data) => {
      if (!data) return data;
      const found = data.pages.some((p) => p.campaigns.some((c) => c.id === campaign.id));
      const pages = data.pages.map((p, i) => ({
        ...p,
        campaigns: found
          ? p.campaigns.map((c) => (c.id === campaign.id ? campaign : c))
          : i === 0
            ? [campaign, ...p.campaigns]
            : p.campaigns,
      }));
      return { ...data, pages };
    });
  };
}

/**
 * Keeps the campaigns current from the `campaign` socket event; the recipients of a campaign whose counts changed
 * are fetched again, at most once a second.
 */
export function useCampaignsLiveUpdates(): void {
  const queryClient = useQueryClient();
  const apply = useApplyCampaign();
  const lastRefetch = useRef(new Map<number, number>());
  const pending = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useSocketEvent('campaign', ({ campaign }) => {
    const before = queryClient.getQueryData<CampaignDto>([...CAMPAIGNS_KEY, 'one', campaign.id]);
    apply(campaign);
    const changed = !before || before.sent !== campaign.sent || before.failed !== campaign.failed || before.unknown !== campaign.unknown || before.status !== campaign.status;
    if (!changed || pending.current.has(campaign.id)) return;
    const wait = Math.max(0, 1000 - (Date.now() - (lastRefetch.current.get(campaign.id) ?? 0)));
    pending.current.set(
      campaign.id,
      setTimeout(() => {
        pending.current.delete(campaign.id);
        lastRefetch.current.set(campaign.id, Date.now());
        void queryClient.invalidateQueries({ queryKey: [...CAMPAIGNS_KEY, 'recipients', campaign.id] });
      }, wait),
    );
  });
}

/** The campaign a page shows when it opens: the newest of its kind still under way. */
export function activeCampaignOf(kind: CampaignKind, campaigns: readonly CampaignDto[]): CampaignDto | undefined {
  return campaigns.find((c) => c.kind === kind && (c.status === 'running' || c.status === 'queued' || c.status === 'paused'));
}
