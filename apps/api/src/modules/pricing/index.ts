/** What other modules use of pricing: the quote of a route, which prices every shipment line. */
export { quoteRoute } from './quote.ts';
