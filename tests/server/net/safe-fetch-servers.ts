import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, expect } from 'vitest'
import { type LookupFunction, UrlFetchError } from '../../../server/net/safe-fetch.ts'

/**
 * What the safe-fetch tests share (safe-fetch.test.ts, safe-fetch-addresses.test.ts): a canary
 * server that must never be reached, a site standing in for the public web, a scripted resolver
 * and the error code of a fetch. The ports, the allow list and the canary's count are live
 * bindings, set when `fetchServers()`'s hooks start the servers.
 */

/** The canary: a real server on loopback that must never be reached. Its port is never allowed. */
let canary: Server
export let canaryPort = 0
export let canaryHits = 0

/** The site: a local server standing in for the public web, reachable only through `allow`. */
let site: Server
export let sitePort = 0
export let allow: string[] = []
const openResponses = new Set<ServerResponse>()

/** What the site's error pages hold, which no error of safeFetch may repeat. */
export const SECRET = 'SECRET-INTERNAL-STACK-TRACE'

function serveSite(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://site')
  switch (url.pathname) {
    case '/page.html':
      res.writeHead(200, { 'content-type': 'Text/HTML; charset="UTF-8"' })
      res.end(`<p>ok ${req.headers['user-agent']}</p>`)
      return
    case '/report':
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="../../etc/report.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
      })
      res.end('%PDF-1.4')
      return
    case '/plain-name':
      res.writeHead(200, { 'content-disposition': 'attachment; filename="policy v2.docx"' })
      res.end('x')
      return
    case '/':
      res.writeHead(200)
      res.end('root')
      return
    case '/big':
      res.writeHead(200, { 'content-type': 'text/plain' })
      // chunked, no Content-Length: only counting while streaming can catch it
      res.write(Buffer.alloc(1024, 0x61))
      res.end(Buffer.alloc(1024, 0x61))
      return
    case '/declared-huge':
      // headers promise 100 MB, then nothing: only an early refusal avoids waiting for the timeout
      openResponses.add(res)
      res.writeHead(200, { 'content-length': String(100 * 1024 * 1024) })
      res.flushHeaders()
      return
    case '/slow':
      openResponses.add(res)
      return
    case '/drip': {
      // answers at once, then trickles the body forever: the overall timeout must still fire
      openResponses.add(res)
      res.writeHead(200, { 'content-type': 'text/plain' })
      const timer = setInterval(() => res.write('.'), 20)
      res.on('close', () => clearInterval(timer))
      return
    }
    case '/error':
      res.writeHead(500, `Internal ${SECRET}`, { 'content-type': 'text/plain' })
      res.end(SECRET)
      return
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/html' })
      res.end(`<h1>${SECRET}</h1>`)
      return
    case '/gzip':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
      res.end(gzipSync(Buffer.from('hello gzip '.repeat(100))))
      return
    case '/br':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' })
      res.end(brotliCompressSync(Buffer.from('hello brotli '.repeat(100))))
      return
    case '/bomb': {
      // about 1 KB on the wire, 1 MB once inflated
      const packed = gzipSync(Buffer.alloc(1024 * 1024))
      res.writeHead(200, {
        'content-encoding': 'gzip',
        'content-length': String(packed.length),
      })
      res.end(packed)
      return
    }
    case '/odd-encoding':
      res.writeHead(200, { 'content-encoding': 'zstd' })
      res.end('xx')
      return
    case '/redirect': {
      const status = Number(url.searchParams.get('status') ?? 302)
      res.writeHead(status, { location: url.searchParams.get('to') ?? '/' })
      res.end(SECRET)
      return
    }
    case '/loop':
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` })
      res.end()
      return
    case '/not-modified':
      res.writeHead(304)
      res.end()
      return
    default:
      res.writeHead(404)
      res.end()
  }
}

/** Starts a server on a free loopback port and answers the port. */
export const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

/**
 * Starts the canary and the site before the file's tests and closes them after; before each test,
 * the canary must not have been reached.
 */
export function fetchServers() {
  beforeAll(async () => {
    canary = createServer((_req, res) => {
      canaryHits += 1
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('canary')
    })
    canaryPort = await listen(canary)
    site = createServer(serveSite)
    sitePort = await listen(site)
    allow = [`127.0.0.1:${sitePort}`]
  })

  afterAll(async () => {
    for (const res of openResponses) res.destroy()
    canary.closeAllConnections()
    site.closeAllConnections()
    await Promise.all([
      new Promise((resolve) => canary.close(resolve)),
      new Promise((resolve) => site.close(resolve)),
    ])
  })

  beforeEach(() => {
    expect(canaryHits).toBe(0)
  })
}

/** After a test that reached the canary on purpose (its control), the count starts again. */
export const resetCanaryHits = () => {
  canaryHits = 0
}

/** A resolver that answers every name from a fixed script, one answer per call. */
export function scriptedLookup(answers: string[][]): LookupFunction & { calls: number } {
  const lookup = ((_hostname, _options, callback) => {
    const answer = answers[Math.min(lookup.calls, answers.length - 1)] ?? []
    lookup.calls += 1
    callback(
      null,
      answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    )
  }) as LookupFunction & { calls: number }
  lookup.calls = 0
  return lookup
}

/** A public IPv4 address (example.com's). */
export const PUBLIC_V4 = '93.184.215.14'

/** The UrlFetchError code a fetch fails with ('ok' when it succeeds). */
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => {
      const found = error instanceof UrlFetchError ? error : (error as { cause?: unknown }).cause
      return found instanceof UrlFetchError ? found.code : `other: ${String(error)}`
    },
  )
