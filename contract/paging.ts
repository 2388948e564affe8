import { z } from 'zod'

/** Paged lists answer `{ count, results }`. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number().int().nonnegative(), results: z.array(item) })

export type Paged<T> = { count: number; results: T[] }

/** Common query parameters of paged lists. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(50),
})
