/**
 * What other modules use of shipments: reading a shipment row and its events, the branch scope and
 * text search of lists (deliveries and fleet search shipments the same way), the answer shape, and
 * the fold of the daily count deltas (run in the background by the app; tests call it directly).
 */
export {
  branchScope,
  countByDayAndStatusUpTo,
  dailyCountDays,
  dailyCountsByBucket,
  filterConditions,
  findEvents,
  findRow,
  foldDailyCounts,
  textSearch,
  type DayStatusCount,
} from './repository.ts';
export { foldDailyCountsInBackground, shipmentKey, toShipmentDto, type ShipmentDto } from './service.ts';
