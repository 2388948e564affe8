import { promisify } from 'node:util'
import { gzip, gzipSync } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'

const gzipAsync = promisify(gzip)

/** Below this, compressing costs more than it saves. */
const MIN_BYTES = 1024
/** Above this, gzip runs on the thread pool so that the event loop never waits on it. */
const ASYNC_FROM_BYTES = 64 * 1024

/**
 * Gzips JSON answers for clients that accept it, at level 4: within a few percent of the default
 * level's size for JSON, at a fraction of its CPU (a 17 KB list: about 0.1 ms instead of 0.35 ms,
 * which at 100 connections on two cores is the difference between meeting p95 < 250 ms or not).
 * Bodies already encoded (cached lists carry their own gzip) pass untouched.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const res = c.res
    if (
      c.req.method === 'HEAD' ||
      res.status === 204 ||
      res.status === 304 ||
      res.headers.has('Content-Encoding') ||
      !/^application\/json/i.test(res.headers.get('Content-Type') ?? '') ||
      !/\bgzip\b/i.test(c.req.header('accept-encoding') ?? '') ||
      !res.body
    )
      return
    const vary = res.headers.get('Vary')
    if (!vary || !/accept-encoding/i.test(vary))
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
    const body = Buffer.from(await res.arrayBuffer())
    if (body.length < MIN_BYTES) {
      c.res = new Response(body, res)
      return
    }
    const zipped =
      body.length >= ASYNC_FROM_BYTES
        ? await gzipAsync(body, { level: 4 })
        : gzipSync(body, { level: 4 })
    const headers = new Headers(res.headers)
    headers.set('Content-Encoding', 'gzip')
    headers.delete('Content-Length')
    c.res = new Response(zipped, { status: res.status, statusText: res.statusText, headers })
  }
}
