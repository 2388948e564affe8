/**
 * The address's query as plain text (issue 39). The router's default reads `uid=2` as the number 2
 * and, once a route's schema has made it the text "2" again, writes it back as `uid=%222%22` (JSON
 * quotes), which is what a person then sees and copies. Here every value stays the text it was:
 * routes that want a number coerce it in their own schema.
 */
export function parseSearchText(query: string): Record<string, string> {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)
  const search: Record<string, string> = {}
  for (const [key, value] of params) if (!Object.hasOwn(search, key)) search[key] = value
  return search
}

/** The inverse of `parseSearchText`: text as it is, numbers and booleans as written, objects as JSON. */
export function stringifySearchText(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  const query = params.toString()
  return query ? `?${query}` : ''
}
