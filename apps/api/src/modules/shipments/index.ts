/**
 * What other modules use of shipments: reading a shipment row and its events, the branch scope and
 * text search of lists (deliveries and fleet search shipments the same way), and the answer shape.
 */
export { branchScope, countByDayAndStatus, dailyCountsByStatus, filterConditions, findEvents, findRow, textSearch } from './repository.ts';
export { foldDailyCountsInBackground, shipmentKey, toShipmentDto, type ShipmentDto } from './service.ts';
export { foldDailyCounts } from './repository.ts';
