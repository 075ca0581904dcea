import { and, eq } from 'drizzle-orm';
import { customerName, type LookupResult } from '@tramo/domain';
import { customers } from '../../db/schema.ts';
import { DEMO_DIRECTORY } from './demo-directory.ts';
import type { LookupProvider } from './types.ts';

/**
 * The offline default: answers from the customers already registered and, in demo mode, from a
 * small fictional directory. Validation of the number happens before any provider is asked.
 */
export function localLookup(options: { demo: boolean }): LookupProvider {
  const directory = options.demo ? DEMO_DIRECTORY : [];
  return {
    name: 'local',
    async find(kind, number, { db }) {
      const [known] = await db
        .select()
        .from(customers)
        .where(and(eq(customers.docType, kind === 'dni' ? 1 : 6), eq(customers.docNumber, number)))
        .limit(1);
      if (known) {
        const result: LookupResult = { docType: kind, docNumber: number, name: customerName(known), firstName: known.firstName, source: 'clientes' };
        if (known.lastName) result.lastName = known.lastName;
        if (known.address) result.address = known.address;
        if (known.ubigeo) result.ubigeo = known.ubigeo;
        return result;
      }
      const entry = directory.find((d) => d.docType === kind && d.docNumber === number);
      return entry ? { ...entry, source: 'demo' } : null;
    },
  };
}
