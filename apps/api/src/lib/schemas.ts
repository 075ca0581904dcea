import { z } from 'zod';

/** Ids are 32-bit serials: anything else is not a record of ours (and would overflow the column). */
export const recordId = (message = 'Identificador inválido') =>
  z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

export const idParams = z.object({ id: recordId() });

/** Optional paging of a list; both absent means "everything". */
export const pagingQuery = z.object({
  page: z.coerce.number().int().min(1, 'Página inválida').optional(),
  pageSize: z.coerce.number().int().min(1, 'Tamaño de página inválido').max(1000, 'Máximo 1000 por página').optional(),
});
