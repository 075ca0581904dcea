import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

export interface Health {
  status: 'ok';
  db: 'embedded' | 'postgres';
  demo: boolean;
  /** PUBLIC_URL, or null: then the app's own origin. */
  publicUrl: string | null;
}

export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: () => api.get<Health>('/health'),
  staleTime: 5 * 60_000,
});

export const useHealth = () => useQuery(healthQuery);

/** The public page's path for a code with its link's key (`?k=`), which only the server can sign (issue 31). */
const trackingLinkQuery = (code: string) =>
  queryOptions({
    queryKey: ['tracking-link', code],
    queryFn: () => api.get<{ path: string }>(`/tracking-links/${encodeURIComponent(code)}`),
    staleTime: Infinity,
  });

/**
 * The public tracking page of a shipment (the label's QR): PUBLIC_URL when set, else the address
 * this app is opened at, and the link's key without which the page shows only the status. Null
 * until the server has said both, so nothing prints a wrong origin or a link without its key.
 */
export function usePublicTrackingUrl(code: string): string | null {
  const { data } = useHealth();
  const link = useQuery(trackingLinkQuery(code));
  if (!data || !link.data) return null;
  return `${data.publicUrl ?? window.location.origin}${link.data.path}`;
}
