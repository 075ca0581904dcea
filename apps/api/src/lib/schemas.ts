import { z } from 'zod';

export { idParams, recordId } from '@tramo/domain';

/** Optional paging of a list; both absent means "everything". */
export const pagingQuery = z.object({
  page: z.coerce.number().int().min(1, 'Página inválida').optional(),
  pageSize: z.coerce.number().int().min(1, 'Tamaño de página inválido').max(1000, 'Máximo 1000 por página').optional(),
});
