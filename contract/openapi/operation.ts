import type { $ZodType } from 'zod/v4/core'
import type { Capability } from '../roles.ts'

/**
 * One call of the API as the OpenAPI document describes it (issue 41). Its schemas are the
 * contract's own zod schemas, the ones the server validates with and the client parses with;
 * the document is generated from them (server/modules/platform/openapi.ts).
 */
export interface OperationDoc {
  /** A short sentence: what the call does. */
  summary: string
  /** Longer words, when the summary is not enough (Markdown). */
  description?: string
  /**
   * Who may call it: anyone (`public`), anyone signed in (`signed-in`), or the capability a role
   * (or an API key's scope) needs (contract/roles.ts). Whether an API key may call it at all is
   * the server's rule (`keyMayCall`), written into the document from there.
   */
  access: 'public' | 'signed-in' | Capability
  /** The JSON body it reads. */
  body?: $ZodType
  /** A multipart upload (`files` fields and the form fields named). */
  multipart?: { fields?: string[] }
  /** Query parameters (an object schema). */
  query?: $ZodType
  /** The JSON answer of success, or what else it answers. */
  response?: $ZodType
  /** 200 unless said. */
  status?: 200 | 201 | 202 | 204 | 302 | 303
  /** A file download, a server-sent event stream, an HTML page or a redirect instead of JSON. */
  produces?: 'file' | 'event-stream' | 'html' | 'redirect' | 'text'
}

/** The operations of an area, keyed `METHOD /path/{id}/` as under /api/v1 (contract/paths.ts). */
export type OperationDocs = Record<string, OperationDoc>

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** An operation's key from a contract path with `{name}` placeholders: `op('GET', paths.files.get('{id}'))`. */
export const op = (method: HttpMethod, path: string) => `${method} ${decodeURIComponent(path)}`

/** A server route's path (`/api/v1/files/:id{[0-9]+}/`) as the document writes it (`/files/{id}/`). */
export const documentPath = (routePath: string, prefix: string) =>
  routePath
    .slice(prefix.length)
    .replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, (_, name: string) => `{${name}}`)
