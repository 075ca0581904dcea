/** The API's answers, inferred from the schemas the routes declare (packages/domain answers.ts). */
export type { Shipment, ShipmentEvent, ShipmentPage } from '@tramo/domain';
