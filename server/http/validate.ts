import type { Context } from 'hono'
import { type $ZodType, type output, safeParse } from 'zod/v4/core'
import { ERROR_CODES, ERROR_TEXTS } from '../../contract/errors.ts'
import { TEXT_INPUT_TEXTS } from '../../contract/text.ts'
import { apiError, validationError } from './errors.ts'

/** The path of the first string in a JSON value that holds a NUL character, or null. */
function nulAt(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulAt(item, [...path, String(index)])
      if (found) return found
    }
    return null
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulAt(item, [...path, key])
      if (found) return found
    }
  }
  return null
}

/** PostgreSQL text cannot hold NUL: refused in plain words, naming the field, in every body. */
export function refuseNul(raw: unknown) {
  const nul = nulAt(raw)
  if (!nul) return
  const field = nul.join('.') || null
  throw apiError(400, TEXT_INPUT_TEXTS.nul, {
    code: ERROR_CODES.validation,
    msg: field ? `${field}: ${TEXT_INPUT_TEXTS.nul}` : TEXT_INPUT_TEXTS.nul,
    detail: [{ field, message: TEXT_INPUT_TEXTS.nul }],
  })
}

/** The JSON body, not yet checked: bad JSON is a 400, and so is a NUL in any string. */
export async function readJson(c: Context): Promise<unknown> {
  let raw: unknown
  try {
    raw = await c.req.json()
  } catch {
    throw apiError(400, ERROR_TEXTS.invalidJson, { code: 'invalid_json' })
  }
  refuseNul(raw)
  return raw
}

/** Parses the JSON body with a contract schema; bad JSON or a bad shape is a 400 in plain words. */
export async function jsonBody<T extends $ZodType>(c: Context, schema: T): Promise<output<T>> {
  const raw = await readJson(c)
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
