/** What other modules use of pricing: the quote of a route, which prices every shipment line. */
export { findRouteTables, quoteFromTable, quoteRoute, type RouteTable } from './quote.ts';
