import { lastNumberedPage, SHIPMENT_PAGE_SIZES } from '@tramo/domain';
import { pageNumber } from '../../../lib/url-state.ts';
import type { ShipmentListParams } from '../api/get-shipments.ts';

export const FILTER_KEYS = ['q', 'status', 'active', 'dateFrom', 'dateTo', 'originBranchId', 'destinationBranchId', 'incidencia'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

const DEFAULT_PAGE_SIZE = 10;

/** Spec section 2: the list's state in the address query; empty filters and the first page leave it. */
export const LIST_URL_DEFAULTS = {
  q: '',
  status: '',
  active: '',
  dateFrom: '',
  dateTo: '',
  originBranchId: '',
  destinationBranchId: '',
  incidencia: '',
  page: '1',
  pageSize: String(DEFAULT_PAGE_SIZE),
  // Past the numbered pages, the cursor the list answered for 'Siguiente' or 'Anterior'.
  after: '',
  before: '',
};

/** The address query is the list's state: a reload or a shared link shows the same view. */
export function listParamsFrom(values: Record<keyof typeof LIST_URL_DEFAULTS, string>): ShipmentListParams {
  const pageSize = pageNumber(values.pageSize, DEFAULT_PAGE_SIZE, SHIPMENT_PAGE_SIZES);
  const byCursor = Boolean(values.after || values.before);
  const page = pageNumber(values.page, 1);
  // A page number past the numbered ones (an old link) opens the last numbered page.
  const params: ShipmentListParams = { page: byCursor ? page : Math.min(page, lastNumberedPage(pageSize)), pageSize };
  if (values.after) params.after = values.after;
  else if (values.before) params.before = values.before;
  for (const key of FILTER_KEYS) if (values[key]) params[key] = values[key];
  return params;
}

/** Spec section 5: dates YYYY-MM-DD and from <= to. */
export const isRangeInvalid = (p: Pick<ShipmentListParams, 'dateFrom' | 'dateTo'>) => Boolean(p.dateFrom && p.dateTo && p.dateFrom > p.dateTo);
