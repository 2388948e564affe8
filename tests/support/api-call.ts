import { apiPath } from '../../contract/paths.ts'
import { checkAnswer } from './openapi-check.ts'

/** Whatever answers requests as the app does: the in-process app, or a browser in front of it. */
export type Requester = (path: string, init: RequestInit) => Response | Promise<Response>

/**
 * A JSON call to the API (path without /api/v1): the status, the headers and the body read as
 * JSON (as text when it is not JSON).
 */
export async function apiCall(
  request: Requester,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const res = await request(apiPath(path), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await res.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = text
  }
  checkAnswer(method, path, res.status, json)
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
  return { status: res.status, headers: res.headers, body: json as any }
}
