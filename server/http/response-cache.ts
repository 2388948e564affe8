import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { Context } from 'hono'

const gzipAsync = promisify(gzip)

/**
 * Finished JSON bodies kept in memory, by a key that names everything they depend on (the
 * organisation, the object, the revision read from the database on this very call, the query).
 * A call whose key is unchanged gets the same bytes, already compressed, without rebuilding them;
 * its ETag lets a client ask with If-None-Match and get 304. The key is read from the database per
 * call, so a change made through another API node changes it too. Bounded by total bytes, least
 * recently used first out.
 */
export function createResponseCache(maxBytes = 64 * 1024 * 1024) {
  interface Entry {
    etag: string
    json: Buffer
    gzipped: Buffer
  }
  const entries = new Map<string, Entry>()
  const building = new Map<string, Promise<Entry>>()
  let bytes = 0

  const sizeOf = (entry: Entry) => entry.json.length + entry.gzipped.length
  function remember(key: string, entry: Entry) {
    const old = entries.get(key)
    if (old) {
      bytes -= sizeOf(old)
      entries.delete(key)
    }
    if (sizeOf(entry) > maxBytes) return
    entries.set(key, entry)
    bytes += sizeOf(entry)
    for (const [oldest, value] of entries) {
      if (bytes <= maxBytes) break
      entries.delete(oldest)
      bytes -= sizeOf(value)
    }
  }

  /** Answers the JSON that `build` makes for `key`, from memory when the key is known. */
  async function respond(c: Context, key: string, build: () => Promise<unknown>) {
    const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 32)}"`
    const headers = { ETag: etag, Vary: 'Accept-Encoding' }
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers)
    let entry = entries.get(key)
    if (entry) {
      // most recently used: to the end of the order
      entries.delete(key)
      entries.set(key, entry)
    } else {
      // calls that miss together share one build
      let pending = building.get(key)
      if (!pending) {
        pending = (async () => {
          const json = Buffer.from(JSON.stringify(await build()))
          const built = { etag, json, gzipped: await gzipAsync(json, { level: 4 }) }
          remember(key, built)
          return built
        })().finally(() => building.delete(key))
        building.set(key, pending)
      }
      entry = await pending
    }
    const body = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '') ? entry.gzipped : entry.json
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': 'application/json',
      ...(body === entry.gzipped ? { 'Content-Encoding': 'gzip' } : {}),
    })
  }

  return {
    respond,
    get size() {
      return entries.size
    },
  }
}

export type ResponseCache = ReturnType<typeof createResponseCache>
