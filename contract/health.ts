import * as z from 'zod/mini'

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_s: z.number(),
  database: z.object({
    reachable: z.boolean(),
    latency_ms: z.nullable(z.number()),
    embedded: z.boolean(),
  }),
  migrations: z.object({
    version: z.nullable(z.string()),
    applied: z.int(),
    pending: z.int(),
  }),
  jobs: z.object({ running: z.boolean(), workers: z.boolean() }),
})
export type Health = z.infer<typeof healthSchema>
