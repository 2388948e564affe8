import type { Context } from 'hono'
import { type $ZodType, type output, safeParse } from 'zod/v4/core'
import { ERROR_TEXTS } from '../../contract/errors.ts'
import { apiError, validationError } from './errors.ts'

/** Parses the JSON body with a contract schema; bad JSON or a bad shape is a 400 in plain words. */
export async function jsonBody<T extends $ZodType>(c: Context, schema: T): Promise<output<T>> {
  let raw: unknown
  try {
    raw = await c.req.json()
  } catch {
    throw apiError(400, ERROR_TEXTS.invalidJson, { code: 'invalid_json' })
  }
  const result = safeParse(schema, raw)
  if (!result.success) throw validationError(result.error)
  return result.data
}

export function query<T extends $ZodType>(c: Context, schema: T): output<T> {
  const result = safeParse(schema, c.req.query())
  if (!result.success) throw validationError(result.error)
  return result.data
}

export function params<T extends $ZodType>(c: Context, schema: T): output<T> {
  const result = safeParse(schema, c.req.param())
  if (!result.success) throw validationError(result.error)
  return result.data
}
