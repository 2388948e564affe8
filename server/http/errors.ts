import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { $ZodError } from 'zod/v4/core'
import { type ApiError, ERROR_CODES, ERROR_TEXTS, type ErrorCode } from '../../contract/errors.ts'

/** An error that leaves the server as `{ error, msg?, detail?, code? }` with its HTTP status. */
export class ApiException extends HTTPException {
  readonly body: ApiError
  /** Extra response headers, such as Retry-After on a 429. */
  readonly headers: Record<string, string>
  constructor(status: ContentfulStatusCode, body: ApiError, headers: Record<string, string> = {}) {
    super(status, { message: body.error })
    this.body = body
    this.headers = headers
  }
}

export const apiError = (
  status: ContentfulStatusCode,
  error: string,
  extra: Omit<ApiError, 'error'> = {},
  headers: Record<string, string> = {},
) => new ApiException(status, { error, ...extra }, headers)

export const notFound = (error: string = ERROR_TEXTS.notFound) =>
  apiError(404, error, { code: ERROR_CODES.notFound })

/** A zod failure as a 400 naming each bad field in plain words. */
export function validationError(error: $ZodError, error_text: string = ERROR_TEXTS.validation) {
  const detail = error.issues.map((issue) => ({
    field: issue.path.join('.') || null,
    message: issue.message,
  }))
  const first = detail[0]
  const msg = first ? (first.field ? `${first.field}: ${first.message}` : first.message) : undefined
  return apiError(400, error_text, { code: ERROR_CODES.validation, msg, detail })
}

export function errorResponse(c: Context, status: ContentfulStatusCode, body: ApiError) {
  return c.json(body, status)
}

export const codeForStatus = (status: number): ErrorCode | undefined =>
  ({
    400: ERROR_CODES.validation,
    401: ERROR_CODES.unauthorized,
    403: ERROR_CODES.forbidden,
    404: ERROR_CODES.notFound,
    409: ERROR_CODES.conflict,
    413: ERROR_CODES.tooLarge,
    415: ERROR_CODES.unsupportedMedia,
    429: ERROR_CODES.rateLimited,
    503: ERROR_CODES.unavailable,
  })[status]
