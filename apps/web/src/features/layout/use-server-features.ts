import { useQuery } from '@tanstack/react-query';
import { api } from '../../services/api';

/** What GET /api/health says about the running server beyond "ok". */
export interface ServerFeatures {
  /** The built-in simulator (SIMULATOR=on): its routes and its page exist. */
  simulator: boolean;
}

interface HealthBody {
  status: string;
  simulator?: boolean;
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
      return { simulator: body.simulator === true };
    },
  });
  return { features: data ?? { simulator: false }, isLoading };
}
