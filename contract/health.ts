import * as z from 'zod/mini'

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  /** Only for signed-in callers: an anonymous caller learns nothing of what is deployed. */
  version: z.optional(z.string()),
  uptime_s: z.number(),
  database: z.object({
    reachable: z.boolean(),
    latency_ms: z.nullable(z.number()),
    embedded: z.boolean(),
  }),
  migrations: z.object({
    /** The newest applied migration's tag; null before any, and for anonymous callers. */
    version: z.nullable(z.string()),
    applied: z.int(),
    pending: z.int(),
  }),
  jobs: z.object({ running: z.boolean(), workers: z.boolean() }),
})
export type Health = z.infer<typeof healthSchema>
