import type { ProductType, ShipmentLine, ShipmentStatus } from '@tramo/domain';

/** One entry of a shipment's history as GET /shipments/{id} returns it. */
export interface ShipmentEvent {
  id: number;
  name: string;
  at: string;
  userName: string | null;
  /** 'status', 'cancel', 'edit', 'secret', 'description' are the shipment's record; only 'event' is deletable. */
  kind: string;
  note: string | null;
  statusFrom: string | null;
  statusTo: string | null;
}

export interface DeliveredInfo {
  receiverName?: string;
  receiverDoc?: string;
  deliveredByName?: string;
  deliveredAt?: string;
  notes?: string | null;
}

/** A shipment as the API answers it (spec section 3 plus the caller's permissions). */
export interface Shipment {
  id: number;
  code: string;
  status: ShipmentStatus;
  createdAt: string;
  updatedAt: string;
  createdByName: string | null;
  originBranchId: number;
  destinationBranchId: number;
  originBranch: { name: string; city: string | null };
  destinationBranch: { name: string; city: string | null };
  senderCustomerId: number | null;
  senderName: string;
  recipientFirstName: string;
  recipientLastName: string;
  recipientName: string;
  recipientDoc: string;
  productType: ProductType;
  weightKg: number;
  billableWeightKg: number;
  description: string | null;
  quotedPrice: number;
  quotedCurrency: string;
  quotedFactorPerKg: number;
  usingReverse: boolean;
  multiLineDetail: ShipmentLine[] | null;
  deliveredInfo: DeliveredInfo | null;
  checkpoints?: ShipmentEvent[];
  canManage?: boolean;
  canEdit?: boolean;
}

export interface ShipmentPage {
  items: Shipment[];
  /** Exact up to 10 000; `totalCapped` says there are more. */
  total: number;
  totalCapped?: boolean;
  page: number;
  pageSize: number;
}

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = { liviano: 'Liviano', medio: 'Medio', alto: 'Alto' };
