/** The trips module (issue 17): departure and arrival of a transport's load, scanning, the unload check. */
export { default as tripRoutes } from './routes.ts';
