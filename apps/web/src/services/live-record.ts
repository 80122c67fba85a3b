import { useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from './api';

/** A record the server sends again at each of its changes (a job's progress), stamped with its last change. */
export interface StampedRecord {
  updatedAt: string;
}

/** Whether `incoming` is not older than `current`: copies of one record (a fetch, socket events) may arrive out of order. */
export function isNotOlder(incoming: StampedRecord, current: StampedRecord | undefined): boolean {
  return !current || Date.parse(incoming.updatedAt) >= Date.parse(current.updatedAt);
}

/**
 * Fetches a live record for its query without going back in time. A job can move on while the request is on its way:
 * the socket event that says so is put in the cache first, and the answer, read before it, must not replace it (a
 * history import that had ended stayed at "0 / 1" in its dialog until closed).
 */
export async function fetchLatest<T extends StampedRecord>(queryClient: QueryClient, key: QueryKey, fetch: () => Promise<T>): Promise<T> {
  const fetched = await fetch();
  const cached = queryClient.getQueryData<T>(key);
  return cached && !isNotOlder(fetched, cached) ? cached : fetched;
}

/** How often an active job's record is fetched again, so that its progress shows even when a socket event was missed. */
export const ACTIVE_JOB_REFRESH_MS = 5000;

/** Whether a job (a campaign, a group action, a history import) is waiting or running; paused or ended is not. */
export const isActiveJob = (job: { status: string }) => job.status === 'queued' || job.status === 'running';

/**
 * One job's record from `path` (none while null), kept current by the socket events the caller applies to `queryKey`:
 * never replaced by an older answer, and fetched again every few seconds while the job is active.
 */
export function useLiveJob<T extends StampedRecord & { status: string }>(queryKey: QueryKey, path: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey,
    enabled: path !== null,
    queryFn: () => fetchLatest(queryClient, queryKey, async () => (await api.get<T>(path!)).data),
    refetchInterval: (query) => (query.state.data && isActiveJob(query.state.data) ? ACTIVE_JOB_REFRESH_MS : false),
  });
}
