import * as z from 'zod/mini'

/** Paged lists answer `{ count, results }`. */
export const paged = <T extends z.ZodMiniType>(item: T) =>
  z.object({ count: z.int().check(z.nonnegative()), results: z.array(item) })

export type Paged<T> = { count: number; results: T[] }

/** Common query parameters of paged lists. */
export const pageQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  page_size: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 50),
})
