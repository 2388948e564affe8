import * as z from 'zod/mini'

/**
 * Every error leaves the server in this shape. `error` is the human-readable text the client
 * shows; `msg` and `detail` carry extra context where the spec's screens read them; `code` is a
 * stable machine-readable key.
 */
export const errorSchema = z.object({
  error: z.string(),
  msg: z.optional(z.string()),
  detail: z.optional(z.unknown()),
  code: z.optional(z.string()),
  /** On a 409 for work already running (generation): the id of the run in progress. */
  job_id: z.optional(z.nullable(z.number())),
})
export type ApiError = z.infer<typeof errorSchema>

export const ERROR_CODES = {
  notFound: 'not_found',
  validation: 'validation_error',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  conflict: 'conflict',
  tooLarge: 'payload_too_large',
  unsupportedMedia: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  unavailable: 'service_unavailable',
} as const
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES]

/** The code of every error that refuses work past a license limit; its detail names the limit. */
export const LICENSE_LIMIT = 'license_limit'

/** Plain-words texts for errors the spec leaves unnamed. */
export const ERROR_TEXTS = {
  notFound: 'Not found',
  routeNotFound: 'No such API endpoint',
  validation: 'The request is not valid',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'The service is temporarily unavailable',
  busy: 'The server is busy. Please try again in a moment.',
  invalidJson: 'The request body is not valid JSON',
} as const

/**
 * The text to show for a failed call, following the spec's order: the response's `error`, then
 * `msg`, then `message`, then `detail` (when it is text), else the fallback.
 */
export function errorText(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>
    for (const key of ['error', 'msg', 'message', 'detail']) {
      const value = record[key]
      if (typeof value === 'string' && value.trim()) return value
    }
  }
  return fallback
}

/** A thrown value's message for the user, or the fallback when it has none. */
export const errorMessage = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback

/** A thrown value's HTTP status, when it carries one (the client's ApiError does). */
export const errorStatus = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}
