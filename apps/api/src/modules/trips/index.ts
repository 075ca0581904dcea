/** The trips module (issue 17): departure and arrival of a transport's load, scanning, the unload check. */
export { default as tripRoutes } from './routes.ts';
// The demo seed departs the trucks it shows on the road through the real use case.
export { depart } from './service.ts';
