import type { LookupResult } from '@tramo/domain';
import type { Db } from '../../db/client.ts';

export type LookupKind = 'dni' | 'ruc';

/** What a provider may read: the database (known customers, the answer cache) and the app clock. */
export interface LookupContext {
  db: Db;
  now: () => Date;
}

/**
 * DNI/RUC identity lookup. The caller has already validated the number (RUC check digit included).
 * Resolves null when the number is unknown; throws an AppError when the service cannot answer.
 */
export interface LookupProvider {
  readonly name: string;
  find(kind: LookupKind, number: string, ctx: LookupContext): Promise<LookupResult | null>;
}
