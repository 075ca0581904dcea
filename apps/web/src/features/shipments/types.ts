import type { ProductType } from '@tramo/domain';

/** The API's answers, inferred from the schemas the routes declare (packages/domain answers.ts). */
export type { Shipment, ShipmentEvent, ShipmentPage } from '@tramo/domain';

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = { liviano: 'Liviano', medio: 'Medio', alto: 'Alto' };
