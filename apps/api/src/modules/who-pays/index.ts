/** Who pays and where (issue 33): the collection rules other modules read, and their settings routes. */
export { default as whoPaysRoutes } from './routes.ts';
export { methodsAcceptedAt, rulesForRoute } from './rules.ts';
