import type { AuditAction, AuditListResponse } from '@wadesk/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, downloadFile } from '../../services/api';

/** The audit log's filters as the page holds them: instants (ISO) computed from the chosen days. */
export interface AuditFilters {
  action?: AuditAction;
  userId?: number;
  from?: string;
  to?: string;
}

export const AUDIT_KEY = ['audit'] as const;

/** The filters as query parameters (empty ones left out). */
export function auditSearch(filters: AuditFilters, pageNumber?: number): string {
  const search = new URLSearchParams();
  if (filters.action) search.set('action', filters.action);
  if (filters.userId !== undefined) search.set('userId', String(filters.userId));
  if (filters.from) search.set('from', filters.from);
  if (filters.to) search.set('to', filters.to);
  if (pageNumber !== undefined && pageNumber > 1) search.set('pageNumber', String(pageNumber));
  return search.toString();
}

/** GET /api/audit: one page (50 entries), newest first; the previous page stays on screen while the next loads. */
export function useAuditPage(filters: AuditFilters, pageNumber: number) {
  return useQuery({
    queryKey: [...AUDIT_KEY, filters, pageNumber],
    queryFn: async () => (await api.get<AuditListResponse>(`/audit?${auditSearch(filters, pageNumber)}`)).data,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/audit/export: the filtered entries as a CSV file (the server records the export). */
export function exportAuditCsv(filters: AuditFilters): Promise<void> {
  const query = auditSearch(filters);
  return downloadFile(`/audit/export${query ? `?${query}` : ''}`, 'audit-log.csv');
}
