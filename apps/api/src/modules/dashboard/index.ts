/** The Panel: counters and the chart of shipments per period and status. */
export { default as dashboardRoutes } from './routes.ts';
