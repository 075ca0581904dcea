export * from './accounts.ts';
export * from './allocation.ts';
export * from './ageing.ts';
export * from './periods.ts';
export * from './balances.ts';
export * from './statement.ts';
