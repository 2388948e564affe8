import { z } from 'zod'
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi'
import { errorSchema } from '../../../contract/errors.ts'
import { documentPath, OPERATIONS, type OperationDoc } from '../../../contract/openapi/index.ts'
import { API_PREFIX } from '../../../contract/paths.ts'
import { keyMayCall } from '../../auth/middleware.ts'

/**
 * The OpenAPI 3.1 document of the API (issue 41), generated from the routes the server holds and
 * the contract's zod schemas of each (contract/openapi/). A route without its description is
 * listed as such (and the suite fails until it is described).
 */

export interface RouteEntry {
  method: string
  path: string
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
const UNDESCRIBED = 'Not yet described.'

/** The area a path belongs to, as the document's tag: its first segment, in words. */
const TAGS: Record<string, string> = {
  admin: 'Administration',
  files: 'Repository',
  urls: 'Repository',
  'knowledge-base': 'Knowledge base',
  filler: 'Questionnaires',
  chat: 'Chat',
  trust: 'Trust centre',
  public: 'Trust centre (public)',
  me: 'My work',
  notifications: 'Notifications',
  products: 'Products',
  customers: 'Customers',
  payouts: 'Billing',
  ticketing: 'Support',
}
const tagOf = (path: string) => {
  const first = path.split('/')[1] ?? ''
  return TAGS[first] ?? first.replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase())
}

const json = (schema: unknown) => ({ 'application/json': { schema: schema as z.ZodType } })
const errors = {
  400: { description: 'Bad input, said in words', content: json(errorSchema) },
  401: { description: 'No valid session or API key', content: json(errorSchema) },
  403: { description: 'The role or the key’s scope does not allow it', content: json(errorSchema) },
  404: { description: 'Not found (another organisation’s id too)', content: json(errorSchema) },
  429: { description: 'Too many calls: see Retry-After', content: json(errorSchema) },
}

function success(doc: OperationDoc) {
  const status = doc.status ?? 200
  const description =
    doc.produces === 'file'
      ? 'The file'
      : doc.produces === 'event-stream'
        ? 'A stream of server-sent events'
        : doc.produces === 'html'
          ? 'An HTML page'
          : doc.produces === 'redirect'
            ? 'A redirect'
            : 'Done'
  const content =
    doc.produces === 'file'
      ? { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } }
      : doc.produces === 'event-stream'
        ? { 'text/event-stream': { schema: z.string() } }
        : doc.produces === 'html'
          ? { 'text/html': { schema: z.string() } }
          : doc.produces === 'text'
            ? { 'text/plain': { schema: z.string() } }
            : doc.response
              ? json(doc.response)
              : undefined
  return { [status]: content ? { description, content } : { description } }
}

function operation(
  method: string,
  path: string,
  doc: OperationDoc | undefined,
): ZodOpenApiOperationObject {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string)
  const access = doc?.access ?? 'signed-in'
  const keys = access !== 'public' && keyMayCall(`${API_PREFIX}${path}`)
  const multipart = doc?.multipart
    ? {
        'multipart/form-data': {
          schema: z.object({
            files: z.array(z.string().meta({ format: 'binary' })).optional(),
            ...Object.fromEntries(
              (doc.multipart.fields ?? []).map((field) => [field, z.string().optional()]),
            ),
          }),
        },
      }
    : undefined
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ? c.toUpperCase() : ''))}`,
    summary: doc?.summary ?? UNDESCRIBED,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [tagOf(path)],
    security: access === 'public' ? [] : [{ bearer: [] }],
    'x-quire-access': access,
    'x-api-key': keys,
    ...(names.length || doc?.query
      ? {
          requestParams: {
            ...(names.length
              ? { path: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) }
              : {}),
            ...(doc?.query ? { query: doc.query as z.ZodObject } : {}),
          },
        }
      : {}),
    ...(doc?.body
      ? { requestBody: { content: json(doc.body) } }
      : multipart
        ? { requestBody: { content: multipart } }
        : {}),
    responses: {
      ...success(doc ?? { summary: UNDESCRIBED, access }),
      ...(access === 'public' ? { 400: errors[400], 404: errors[404], 429: errors[429] } : errors),
    },
  }
}

/** The API's routes as the document lists them: under /api/v1, one per method and path. */
export function apiRoutes(routes: readonly RouteEntry[]) {
  const seen = new Set<string>()
  const list: { method: string; path: string; key: string }[] = []
  for (const route of routes) {
    if (!METHODS.has(route.method) || !route.path.startsWith(`${API_PREFIX}/`)) continue
    if (route.path.includes('*')) continue
    const path = documentPath(route.path, API_PREFIX)
    const key = `${route.method} ${path}`
    if (seen.has(key)) continue
    seen.add(key)
    list.push({ method: route.method, path, key })
  }
  return list
}

/** The document of the routes given (the app's own, `app.routes`). */
export function buildOpenApi(routes: readonly RouteEntry[], options: { publicUrl: string }) {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of apiRoutes(routes)) {
    paths[route.path] ??= {}
    const item = paths[route.path] as Record<string, ZodOpenApiOperationObject>
    item[route.method.toLowerCase()] = operation(route.method, route.path, OPERATIONS[route.key])
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Quire API',
      version: '1',
      description:
        'Quire answers security questionnaires from an organisation’s own approved knowledge. Call it with a person’s access token or an API key (`Authorization: Bearer qk_…`, made in Settings → API keys). `x-api-key` says whether an API key may make the call; `x-quire-access` which role or scope it needs.',
    },
    servers: [{ url: `${options.publicUrl}${API_PREFIX}` }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A person’s access token, or an API key (qk_…).',
        },
      },
    },
    paths,
  })
}
