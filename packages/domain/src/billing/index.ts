export * from './catalogs.ts';
export * from './amounts.ts';
export * from './detraction.ts';
export * from './instalments.ts';
export * from './series.ts';
export * from './words.ts';
export * from './qr.ts';
export * from './invoice.ts';
