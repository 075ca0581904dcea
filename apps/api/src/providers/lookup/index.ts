export type { LookupContext, LookupKind, LookupProvider } from './types.ts';
export { httpLookup, type HttpLookupOptions } from './http.ts';
export { localLookup } from './local.ts';
