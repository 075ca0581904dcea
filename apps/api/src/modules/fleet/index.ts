/** What other modules use of fleet: a renamed branch refreshes the route text of its transports. */
export { refreshRoutesOf } from './transports.ts';
/** What the trips module builds on: the transport row lock, its open trip, the load and loading. */
export { lockTransport, openTripOf } from './transports.ts';
export { loadShipments, transportLoad } from './assignments.ts';
/** The document gate (issue 36): departure asks it and spends the admin's override; the GRE-T asks it too. */
export { overrideForDeparture, spendOverride, transportCompliance } from './compliance.ts';
/** Fleet document alerts at 30, 15 and 7 days (issue 36), written to the notifications outbox. */
export { enqueueFleetExpiryAlerts, startFleetExpiryAlerts } from './expiry-alerts.ts';
