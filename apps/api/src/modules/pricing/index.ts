/** What other modules use of pricing: the quote of a route, which prices every shipment line, and the tariffs of issue 34. */
export { findRouteTables, quoteFromTable, quoteRoute, type RouteTable } from './quote.ts';
export { componentAnswers, priceShipmentFrom, type PricedShipment } from './price-shipment.ts';
export { loadCompanyTariff, loadCustomerTariff, loadRouteExtras, type CompanyTariff, type TariffReferences } from './tariffs.ts';
