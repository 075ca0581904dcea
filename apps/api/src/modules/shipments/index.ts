/**
 * What other modules use of shipments: reading a shipment row and its events, the branch scope and
 * text search of lists (deliveries and fleet search shipments the same way), the answer shape, the
 * one way to change a shipment's status and to record what happens to it (history, messages and
 * audit in the caller's transaction), and the fold of the daily count deltas and the prune of the
 * recent names' index (run in the background by the app; tests call them directly).
 */
export {
  countByDayAndStatusUpTo,
  dailyCountDays,
  dailyCountsByBucket,
  foldDailyCounts,
  foldDailyCountsInBackground,
  type DayStatusCount,
} from './daily-counts.ts';
export { isFreightPaid, shipmentKey, toShipmentDto, type ShipmentDto } from './dto.ts';
export { addShipmentEvent, recordShipmentEvent, type KnownShipment, type ShipmentEventInput } from './events.ts';
export { pruneRecentSearch, pruneRecentSearchInBackground } from './recent-search.ts';
export { findEvents, findRow } from './rows.ts';
export { branchScope, filterConditions, searchMatchesFloor, searchWindows, textFreeConditions, textSearch } from './search.ts';
export { changeShipmentStatus, type StatusChange } from './status.ts';
