import { z } from 'zod'

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_s: z.number(),
  database: z.object({
    reachable: z.boolean(),
    latency_ms: z.number().nullable(),
    embedded: z.boolean(),
  }),
  migrations: z.object({
    version: z.string().nullable(),
    applied: z.number().int(),
    pending: z.number().int(),
  }),
  jobs: z.object({ running: z.boolean(), workers: z.boolean() }),
})
export type Health = z.infer<typeof healthSchema>
