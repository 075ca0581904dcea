import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { ShipmentPage } from '../types.ts';
import { shipmentKeys } from '../../../lib/shipment-queries.ts';

/** The list's filters as they travel in the address query and to GET /shipments. */
export interface ShipmentListParams {
  page: number;
  pageSize: number;
  q?: string;
  status?: string;
  active?: string;
  dateFrom?: string;
  dateTo?: string;
  originBranchId?: string;
  destinationBranchId?: string;
  /** Keyset paging past the numbered pages: the `next` or `prev` cursor of the page shown. */
  after?: string;
  before?: string;
  /** 'abierta': only shipments with an open incident. */
  incidencia?: string;
}

export const shipmentsQuery = (params: ShipmentListParams) =>
  queryOptions({
    queryKey: [...shipmentKeys.lists(), params],
    queryFn: ({ signal }) => api.get<ShipmentPage>('/shipments', { ...params }, signal),
  });

/** Server-side paging; the previous page stays on screen while the next one loads. */
export const useShipments = (params: ShipmentListParams, enabled = true) =>
  useQuery({ ...shipmentsQuery(params), enabled, placeholderData: keepPreviousData });
