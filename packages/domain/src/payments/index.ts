export * from './methods.ts';
export * from './messages.ts';
export * from './modal.ts';
export * from './filters.ts';
export * from './csv.ts';
export * from './cash.ts';
export * from './answers.ts';
export * from './collect.ts';
