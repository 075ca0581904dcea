export { clearLogin, lockedUntil } from './throttle.ts';
