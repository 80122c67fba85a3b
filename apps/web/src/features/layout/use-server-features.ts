import { useQuery } from '@tanstack/react-query';
import { api } from '../../services/api';

/** What GET /api/health says about the running server beyond "ok". */
export interface ServerFeatures {
  /** The built-in simulator (SIMULATOR=on): its routes and its page exist. */
  simulator: boolean;
  /** Where the user guide is published elsewhere (GUIDE_URL, `{lang}` in it), or null: Help opens the desk's /guide/. */
  guideUrl: string | null;
}

interface HealthBody {
  status: string;
  simulator?: boolean;
  guideUrl?: string | null;
}

/**
 * The server's optional features, read once from the public health check (they only change with a restart).
 * Until it answers, or when it cannot, nothing optional is offered.
 */
export function useServerFeatures(): { features: ServerFeatures; isLoading: boolean } {
  const { data, isLoading } = useQuery({
    queryKey: ['server-features'],
    meta: { silent: true },
    staleTime: Infinity,
    retry: 1,
    queryFn: async (): Promise<ServerFeatures> => {
      const body = (await api.get<HealthBody>('/health')).data;
      return { simulator: body.simulator === true, guideUrl: typeof body.guideUrl === 'string' ? body.guideUrl : null };
    },
  });
  return { features: data ?? { simulator: false, guideUrl: null }, isLoading };
}
