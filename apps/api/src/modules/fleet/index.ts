/** What other modules use of fleet: a renamed branch refreshes the route text of its transports. */
export { refreshRoutesOf } from './transports.ts';
