import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicTrackingPath } from '@tramo/domain';
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

/**
 * The public tracking page of a shipment (the label's QR): PUBLIC_URL when set, else the address
 * this app is opened at. Null until the server has said which, so nothing prints a wrong origin.
 */
export function usePublicTrackingUrl(code: string): string | null {
  const { data } = useHealth();
  if (!data) return null;
  return `${data.publicUrl ?? window.location.origin}${publicTrackingPath(code)}`;
}
