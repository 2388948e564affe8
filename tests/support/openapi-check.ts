import { safeParse } from 'zod/v4/core'
import { OPERATIONS, type OperationDoc } from '../../contract/openapi/index.ts'

/**
 * Every successful JSON answer the server suite reads is checked against the OpenAPI document's
 * schema of its operation (issue 41): the document says what the server answers, or a test
 * fails here. Operations without a response schema (files, streams) are not checked.
 */

const templates = Object.entries(OPERATIONS).map(([key, doc]) => {
  const [method, path] = key.split(' ') as [string, string]
  const pattern = new RegExp(
    `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
  )
  // fixed paths first: /files/upload/ before /files/{id}/
  return { method, pattern, doc, fixed: !path.includes('{') }
})
templates.sort((a, b) => Number(b.fixed) - Number(a.fixed))

export function operationOf(method: string, path: string): OperationDoc | undefined {
  const bare = path.split('?')[0] ?? path
  return templates.find((entry) => entry.method === method && entry.pattern.test(bare))?.doc
}

export class OpenApiMismatch extends Error {
  override name = 'OpenApiMismatch'
}

export function checkAnswer(method: string, path: string, status: number, body: unknown) {
  if (status < 200 || status >= 300 || body === undefined || typeof body === 'string') return
  const doc = operationOf(method, path)
  if (!doc?.response || doc.produces) return
  const parsed = safeParse(doc.response, body)
  if (!parsed.success)
    throw new OpenApiMismatch(
      `${method} ${path} answered ${status} with a body the OpenAPI document does not describe: ${JSON.stringify(
        parsed.error.issues.slice(0, 5),
      )}`,
    )
}
