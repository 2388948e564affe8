import type { Context } from 'hono'
import type { z } from 'zod'
import { ERROR_TEXTS } from '../../contract/errors.ts'
import { apiError, validationError } from './errors.ts'

/** Parses the JSON body with a contract schema; bad JSON or a bad shape is a 400 in plain words. */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let raw: unknown
  try {
    raw = await c.req.json()
  } catch {
    throw apiError(400, ERROR_TEXTS.invalidJson, { code: 'invalid_json' })
  }
  const result = schema.safeParse(raw)
  if (!result.success) throw validationError(result.error)
  return result.data
}

export function query<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.query())
  if (!result.success) throw validationError(result.error)
  return result.data
}

export function params<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.param())
  if (!result.success) throw validationError(result.error)
  return result.data
}
