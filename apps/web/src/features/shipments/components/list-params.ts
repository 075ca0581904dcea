import { SHIPMENT_PAGE_SIZES } from '@tramo/domain';
import type { ShipmentListParams } from '../api/get-shipments.ts';

export const FILTER_KEYS = ['q', 'status', 'active', 'dateFrom', 'dateTo', 'originBranchId', 'destinationBranchId'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export const DEFAULT_PAGE_SIZE = 10;

const positiveInt = (raw: string | null, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/** The address query is the list's state: a reload or a shared link shows the same view. */
export function listParamsFrom(search: URLSearchParams): ShipmentListParams {
  const size = positiveInt(search.get('pageSize'), DEFAULT_PAGE_SIZE);
  const params: ShipmentListParams = {
    page: positiveInt(search.get('page'), 1),
    pageSize: (SHIPMENT_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
  for (const key of FILTER_KEYS) {
    const value = search.get(key)?.trim();
    if (value) params[key] = value;
  }
  return params;
}

/** Spec section 5: dates YYYY-MM-DD and from <= to. */
export const isRangeInvalid = (p: Pick<ShipmentListParams, 'dateFrom' | 'dateTo'>) => Boolean(p.dateFrom && p.dateTo && p.dateFrom > p.dateTo);
