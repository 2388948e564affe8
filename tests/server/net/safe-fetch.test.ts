import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { fetch, request } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { KNOWLEDGE_TEXTS } from '../../../contract/knowledge.ts'
import {
  checkUrl,
  createGuardedAgent,
  isBlockedAddress,
  type LookupFunction,
  resolveCheckedAddresses,
  safeFetch,
  UrlFetchError,
} from '../../../server/net/safe-fetch.ts'

/** The canary: a real server on loopback that must never be reached. Its port is never allowed. */
let canary: Server
let canaryPort = 0
let canaryHits = 0

/** The site: a local server standing in for the public web, reachable only through `allow`. */
let site: Server
let sitePort = 0
let allow: string[] = []
const openResponses = new Set<ServerResponse>()

const SECRET = 'SECRET-INTERNAL-STACK-TRACE'

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

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

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

/** A resolver that answers every name from a fixed script, one answer per call. */
function scriptedLookup(answers: string[][]): LookupFunction & { calls: number } {
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

const PUBLIC_V4 = '93.184.215.14'

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => {
      const found = error instanceof UrlFetchError ? error : (error as { cause?: unknown }).cause
      return found instanceof UrlFetchError ? found.code : `other: ${String(error)}`
    },
  )

describe('SS2: non-public addresses are blocked', () => {
  it('SS2: loopback, private and metadata addresses in every spelling are blocked, with zero canary hits', async () => {
    const hosts = [
      '127.0.0.1',
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '0.0.0.0',
      '0',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::127.0.0.1]',
      '2130706433',
      '0x7f000001',
      '0x7F.0.0.1',
      '0177.0.0.1',
      '127.1',
      '127.0.0.1.',
      '%31%32%37.0.0.1',
      '169.254.169.254',
      '[fd00:ec2::254]',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.255.254',
      '[fc00::1]',
      '[fdff:ffff::1]',
      '[fe80::1]',
      '[febf::1]',
      '224.0.0.1',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '[ff02::1]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b::10.0.0.1]',
      '[64:ff9b:1::a00:1]',
      '[2002:7f00:1::]',
      '[2002:c0a8:101::1]',
      '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
    ]
    for (const host of hosts) {
      for (const url of [`http://${host}/`, `https://${host}/`, `http://${host}:${canaryPort}/`]) {
        const checked = checkUrl(url)
        expect(checked.ok, url).toBe(false)
        if (!checked.ok) expect(checked.error.message).toBe(KNOWLEDGE_TEXTS.urlBlocked)
        expect(await codeOf(safeFetch(url, { timeoutMs: 2000 })), url).toBe('blocked')
      }
    }
    // the same addresses reached through a DNS name are refused at connect time
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '169.254.169.254', '::ffff:7f00:1']) {
      const lookup = scriptedLookup([[address]])
      expect(checkUrl('http://innocent.example/').ok).toBe(true)
      expect(await codeOf(safeFetch('http://innocent.example/', { lookup })), address).toBe(
        'blocked',
      )
      expect(lookup.calls).toBe(1)
    }
    expect(canaryHits).toBe(0)
  })

  it('SS2: isBlockedAddress — loopback, private, link-local, CGNAT, special and embedded forms', () => {
    for (const address of [
      '127.0.0.1',
      '0.0.0.0',
      '10.255.255.255',
      '100.64.0.0',
      '169.254.169.254',
      '172.16.0.0',
      '192.168.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:0:a00:1',
      '::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:a00:1::',
      'fc00::',
      'fe80::1%eth0',
      'fec0::1',
      'ff00::',
      '2001:db8::1',
      'not an address',
      '',
      'localhost',
    ]) {
      expect(isBlockedAddress(address), address).toBe(true)
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      PUBLIC_V4,
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.169.0.1',
      '2a00:1450:4001:82b::200e',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '[2606:4700::1]',
    ]) {
      expect(isBlockedAddress(address), address).toBe(false)
    }
  })

  // An oracle written independently of ipaddr.js: IANA's special-purpose IPv4 blocks.
  const SPECIAL_V4: [number, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.31.196.0', 24],
    ['192.52.193.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['192.175.48.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ].map(([base, bits]) => [toNumber(String(base)), Number(bits)])
  function toNumber(dotted: string) {
    return dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0)
  }
  const isSpecial = (n: number) =>
    SPECIAL_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === base / 2 ** (32 - bits))

  /** Every way a URL can spell one IPv4 address. */
  function spellings(n: number): string[] {
    const parts = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
    const [a, b, c, d] = parts as [number, number, number, number]
    const hex = (x: number) => `0x${x.toString(16)}`
    const oct = (x: number) => `0${x.toString(8)}`
    const h1 = ((a << 8) | b).toString(16)
    const h2 = ((c << 8) | d).toString(16)
    return [
      parts.join('.'),
      String(n),
      hex(n),
      `0${n.toString(8)}`,
      parts.map(hex).join('.'),
      parts.map(oct).join('.'),
      `${a}.${(b << 16) | (c << 8) | d}`,
      `${a}.${b}.${(c << 8) | d}`,
      `${parts.join('.')}.`,
      `[::ffff:${parts.join('.')}]`,
      `[::ffff:${h1}:${h2}]`,
      `[64:ff9b::${h1}:${h2}]`,
      `[2002:${h1}:${h2}::1]`,
    ]
  }

  const v4 = fc.integer({ min: 0, max: 2 ** 32 - 1 })
  const privateV4 = fc.oneof(
    fc.integer({ min: 0, max: 2 ** 24 - 1 }).map((x) => 127 * 2 ** 24 + x),
    fc.integer({ min: 0, max: 2 ** 24 - 1 }).map((x) => 10 * 2 ** 24 + x),
    fc.integer({ min: 0, max: 2 ** 20 - 1 }).map((x) => toNumber('172.16.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 16 - 1 }).map((x) => toNumber('192.168.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 16 - 1 }).map((x) => toNumber('169.254.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 22 - 1 }).map((x) => toNumber('100.64.0.0') + x),
    fc.integer({ min: 0, max: 2 ** 24 - 1 }),
    fc.integer({ min: 0, max: 2 ** 28 - 1 }).map((x) => toNumber('224.0.0.0') + x),
  )

  it('SS2: property — random private/loopback addresses in random spellings are all blocked', () => {
    fc.assert(
      fc.property(privateV4, fc.nat(12), (n, which) => {
        const host = spellings(n)[which] as string
        const url = `http://${host}/`
        expect(checkUrl(url).ok, url).toBe(false)
        expect(isBlockedAddress(new URL(url).hostname), url).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('SS2: property — random addresses are blocked exactly when special, in every spelling', () => {
    fc.assert(
      fc.property(v4, fc.nat(12), (n, which) => {
        const host = spellings(n)[which] as string
        const url = `http://${host}/`
        const special = isSpecial(n)
        expect(isBlockedAddress(new URL(url).hostname), url).toBe(special)
        expect(checkUrl(url).ok, url).toBe(!special)
      }),
      { numRuns: 5000 },
    )
  })

  it('SS2: property — random v6 in fc00::/7, fe80::/10 and ff00::/8 are blocked; global unicast is not', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((x) => x.toString(16))
    const tail = fc.array(group, { minLength: 7, maxLength: 7 })
    const withPrefix = (min: number, max: number) =>
      fc
        .tuple(fc.integer({ min, max }), tail)
        .map(([p, rest]) => [p.toString(16), ...rest].join(':'))
    const blockedV6 = fc.oneof(
      withPrefix(0xfc00, 0xfdff),
      withPrefix(0xfe80, 0xfebf),
      withPrefix(0xff00, 0xffff),
    )
    fc.assert(
      fc.property(blockedV6, (address) => {
        expect(isBlockedAddress(address), address).toBe(true)
        expect(checkUrl(`https://[${address}]/`).ok, address).toBe(false)
      }),
    )
    // 2400::/12 (APNIC) and 2a00::/12 (RIPE): plain global unicast
    const publicV6 = fc.oneof(withPrefix(0x2400, 0x240f), withPrefix(0x2a00, 0x2a0f))
    fc.assert(
      fc.property(publicV6, (address) => {
        expect(isBlockedAddress(address), address).toBe(false)
        expect(checkUrl(`https://[${address}]/`).ok, address).toBe(true)
      }),
    )
  })
})

describe('SS1: scheme, port, size and time', () => {
  it('SS1: only http and https on ports 80/443, no credentials, unless the exact host:port is allowed', async () => {
    for (const url of [
      'ftp://example.com/a',
      'file:///etc/passwd',
      'gopher://example.com/',
      'data:text/plain,hi',
      'javascript:alert(1)',
      'http://example.com:8080/',
      'https://example.com:22/',
      'http://example.com:0/',
      'http://user:pw@example.com/',
      'http://user@example.com/',
    ]) {
      const checked = checkUrl(url)
      expect(checked.ok, url).toBe(false)
      if (!checked.ok) expect(checked.error.code, url).toBe('blocked')
    }
    for (const url of ['not a url', '', 'http://', '//example.com/x']) {
      const checked = checkUrl(url)
      expect(checked.ok, url).toBe(false)
      if (!checked.ok) expect(checked.error.code, url).toBe('invalid_url')
    }
    for (const url of [
      'http://example.com/',
      'https://example.com/doc.pdf',
      'http://example.com:80/',
      'https://example.com:443/',
      'HTTPS://Example.COM/Doc',
    ]) {
      expect(checkUrl(url).ok, url).toBe(true)
    }
    expect(checkUrl('http://example.com:8080/', ['example.com:8080']).ok).toBe(true)
    expect(checkUrl('http://example.com:8081/', ['example.com:8080']).ok).toBe(false)
    expect(checkUrl('http://other.com:8080/', ['example.com:8080']).ok).toBe(false)
    // the allowed entry exempts only itself: not other ports, not other spellings of the host
    expect(checkUrl(`http://127.0.0.1:${sitePort}/`, allow).ok).toBe(true)
    expect(checkUrl(`http://127.0.0.1:${canaryPort}/`, allow).ok).toBe(false)
    expect(checkUrl('http://127.0.0.1/', allow).ok).toBe(false)
    expect(checkUrl(`http://localhost:${sitePort}/`, allow).ok).toBe(false)
    expect(checkUrl(`http://[::1]:${sitePort}/`, allow).ok).toBe(false)
    expect(checkUrl(`ftp://127.0.0.1:${sitePort}/`, allow).ok).toBe(false)
    expect(await codeOf(safeFetch(`http://localhost:${sitePort}/page.html`, { allow }))).toBe(
      'blocked',
    )
    expect(await codeOf(safeFetch(`http://127.0.0.1:${sitePort}/page.html`))).toBe('blocked')
  })

  it('SS1: an allowed local page is fetched with its type, charset and file name', async () => {
    const page = await safeFetch(`http://127.0.0.1:${sitePort}/page.html`, { allow })
    expect(page).toMatchObject({
      finalUrl: `http://127.0.0.1:${sitePort}/page.html`,
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      filename: 'page.html',
    })
    expect(page.body.toString()).toBe('<p>ok Quire/1 (+document fetcher)</p>')
    const custom = await safeFetch(`http://127.0.0.1:${sitePort}/page.html`, {
      allow,
      userAgent: 'Test/2',
    })
    expect(custom.body.toString()).toContain('Test/2')
    const report = await safeFetch(`http://127.0.0.1:${sitePort}/report`, { allow })
    expect(report).toMatchObject({ contentType: 'application/pdf', charset: null })
    expect(report.filename).toBe('résumé.pdf')
    const plain = await safeFetch(`http://127.0.0.1:${sitePort}/plain-name`, { allow })
    expect(plain).toMatchObject({ contentType: '', filename: 'policy v2.docx' })
    const root = await safeFetch(`http://127.0.0.1:${sitePort}/`, { allow })
    expect(root.filename).toBeNull()
  })

  it('SS1: the size cap is enforced while streaming and a too-large Content-Length is refused early', async () => {
    const big = await safeFetch(`http://127.0.0.1:${sitePort}/big`, { allow, maxBytes: 2048 })
    expect(big.body.length).toBe(2048)
    const error = await safeFetch(`http://127.0.0.1:${sitePort}/big`, {
      allow,
      maxBytes: 1500,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UrlFetchError)
    expect(error).toMatchObject({ code: 'too_large', message: 'The page is larger than 1.5 KB' })
    // the body never comes; only refusing on the header answers before the 5 s timeout
    const started = Date.now()
    const early = await safeFetch(`http://127.0.0.1:${sitePort}/declared-huge`, {
      allow,
      timeoutMs: 5000,
    }).catch((e: unknown) => e)
    expect(early).toMatchObject({ code: 'too_large', message: 'The page is larger than 20 MB' })
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('SS1: gzip and br are decoded, and the decompressed size counts against the cap', async () => {
    const gz = await safeFetch(`http://127.0.0.1:${sitePort}/gzip`, { allow })
    expect(gz.body.toString()).toBe('hello gzip '.repeat(100))
    const br = await safeFetch(`http://127.0.0.1:${sitePort}/br`, { allow })
    expect(br.body.toString()).toBe('hello brotli '.repeat(100))
    const bomb = await safeFetch(`http://127.0.0.1:${sitePort}/bomb`, {
      allow,
      maxBytes: 64 * 1024,
    }).catch((e: unknown) => e)
    expect(bomb).toMatchObject({ code: 'too_large' })
    const unpacked = await safeFetch(`http://127.0.0.1:${sitePort}/bomb`, { allow })
    expect(unpacked.body.length).toBe(1024 * 1024)
    expect(await codeOf(safeFetch(`http://127.0.0.1:${sitePort}/odd-encoding`, { allow }))).toBe(
      'network',
    )
  })

  it('SS1: the overall timeout covers a silent server and a body that never ends', async () => {
    for (const path of ['/slow', '/drip']) {
      const started = Date.now()
      const error = await safeFetch(`http://127.0.0.1:${sitePort}${path}`, {
        allow,
        timeoutMs: 200,
      }).catch((e: unknown) => e)
      expect(error, path).toMatchObject({
        code: 'timeout',
        message: 'The site did not answer within 200 ms',
      })
      expect(Date.now() - started, path).toBeLessThan(1500)
    }
    const stalled = safeFetch(`http://127.0.0.1:${sitePort}/slow`, { allow, timeoutMs: 1000 })
    await expect(stalled).rejects.toMatchObject({
      message: 'The site did not answer within 1 s',
    })
  })

  it('SS1: HTTP errors carry the status text only, never the remote body or reason phrase', async () => {
    const error = await safeFetch(`http://127.0.0.1:${sitePort}/error`, { allow }).catch(
      (e: Error) => e,
    )
    expect(error).toMatchObject({
      code: 'http_status',
      message: 'The site answered 500 Internal Server Error',
    })
    const missing = await safeFetch(`http://127.0.0.1:${sitePort}/missing`, { allow }).catch(
      (e: Error) => e,
    )
    expect(missing).toMatchObject({
      code: 'http_status',
      message: 'The site answered 404 Not Found',
    })
    const notModified = await safeFetch(`http://127.0.0.1:${sitePort}/not-modified`, {
      allow,
    }).catch((e: Error) => e)
    expect(notModified).toMatchObject({ code: 'http_status' })
    for (const e of [error, missing, notModified]) {
      expect(e).toBeInstanceOf(UrlFetchError)
      const { message, stack } = e as Error
      expect(JSON.stringify({ ...e, message, stack })).not.toContain(SECRET)
    }
    // nobody listens: a network error, in plain words
    const closed = createServer()
    const closedPort = await listen(closed)
    await new Promise((resolve) => closed.close(resolve))
    const refused = await safeFetch(`http://127.0.0.1:${closedPort}/`, {
      allow: [`127.0.0.1:${closedPort}`],
    }).catch((e: Error) => e)
    expect(refused).toMatchObject({ code: 'network', message: 'The site could not be reached' })
  })
})

describe('SS3: redirects', () => {
  const redirect = (to: string, status = 302) =>
    `http://127.0.0.1:${sitePort}/redirect?status=${status}&to=${encodeURIComponent(to)}`

  it('SS3: a redirect to a blocked address is refused at every hop, even from an allowed host', async () => {
    const targets = [
      `http://127.0.0.1:${canaryPort}/`,
      `http://localhost:${canaryPort}/`,
      `http://[::ffff:127.0.0.1]:${canaryPort}/`,
      `http://2130706433:${canaryPort}/`,
      'http://127.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://10.0.0.5/',
      'file:///etc/passwd',
      'ftp://example.com/',
      'http://example.com:25/',
      'http://user:pw@example.com/',
    ]
    for (const status of [301, 302, 303, 307, 308]) {
      for (const target of targets) {
        expect(
          await codeOf(safeFetch(redirect(target, status), { allow })),
          `${status} ${target}`,
        ).toBe('blocked')
      }
    }
    // a chain: allowed -> allowed -> canary
    const chain = redirect(redirect(`http://127.0.0.1:${canaryPort}/`))
    expect(await codeOf(safeFetch(chain, { allow }))).toBe('blocked')
    // a redirect to a name that resolves to loopback is refused at connect time
    const lookup = scriptedLookup([['127.0.0.1']])
    expect(await codeOf(safeFetch(redirect('http://internal.example/'), { allow, lookup }))).toBe(
      'blocked',
    )
    expect(lookup.calls).toBe(1)
    expect(canaryHits).toBe(0)
  })

  it('SS3: allowed redirects are followed by hand up to maxRedirects', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const doc = await safeFetch(redirect('/page.html', status), { allow })
      expect(doc.finalUrl, String(status)).toBe(`http://127.0.0.1:${sitePort}/page.html`)
      expect(doc.filename).toBe('page.html')
    }
    const five = await safeFetch(`http://127.0.0.1:${sitePort}/loop`, { allow }).catch(
      (e: Error) => e,
    )
    expect(five).toMatchObject({ code: 'network', message: 'The site redirected too many times' })
    // exactly maxRedirects hops are fine: redirect -> redirect -> page with maxRedirects 2
    const two = redirect(redirect(`http://127.0.0.1:${sitePort}/page.html`))
    await expect(safeFetch(two, { allow, maxRedirects: 2 })).resolves.toMatchObject({
      status: 200,
    })
    await expect(safeFetch(two, { allow, maxRedirects: 1 })).rejects.toMatchObject({
      code: 'network',
    })
    await expect(
      safeFetch(redirect('/page.html'), { allow, maxRedirects: 0 }),
    ).rejects.toMatchObject({ code: 'network' })
  })
})

describe('SS4: DNS rebinding', () => {
  it('SS4: a name that resolves public at check time and to loopback at connect time never connects', async () => {
    // first answer public (the pre-check), every later answer loopback (the connection)
    const lookup = scriptedLookup([[PUBLIC_V4], ['127.0.0.1']])
    const agent = createGuardedAgent({ lookup, timeoutMs: 2000 })
    try {
      await expect(resolveCheckedAddresses('rebind.example', 80, { lookup })).resolves.toEqual([
        { address: PUBLIC_V4, family: 4 },
      ])
      expect(lookup.calls).toBe(1)
      const viaRequest = await codeOf(
        request(`http://rebind.example:${canaryPort}/`, { dispatcher: agent }),
      )
      expect(viaRequest).toBe('blocked')
      const viaFetch = await codeOf(
        fetch(`http://rebind.example:${canaryPort}/`, { dispatcher: agent }),
      )
      expect(viaFetch).toBe('blocked')
      expect(lookup.calls).toBe(3)
    } finally {
      await agent.close()
    }
    expect(canaryHits).toBe(0)
  })

  it('SS4: one private address among public ones blocks the name; v6 loopback and mapped forms too', async () => {
    for (const answer of [
      [PUBLIC_V4, '127.0.0.1'],
      ['2606:4700::1', '::1'],
      ['::ffff:127.0.0.1'],
      ['0.0.0.0'],
      [],
    ]) {
      const lookup = scriptedLookup([answer])
      const agent = createGuardedAgent({ lookup, timeoutMs: 2000 })
      try {
        const outcome = await codeOf(
          request(`http://rebind.example:${canaryPort}/`, { dispatcher: agent }),
        )
        expect(outcome, answer.join(',')).toBe(answer.length ? 'blocked' : 'network')
      } finally {
        await agent.close()
      }
    }
    const failing: LookupFunction = (_host, _options, callback) =>
      callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), [])
    await expect(safeFetch('http://nowhere.example/', { lookup: failing })).rejects.toMatchObject({
      code: 'network',
      message: 'The site could not be found',
    })
    expect(canaryHits).toBe(0)
  })

  it('SS4: the guarded agent reaches a loopback host:port only when that exact pair is allowed (canary works)', async () => {
    const wrongPort = createGuardedAgent({
      lookup: scriptedLookup([['127.0.0.1']]),
      allow: [`rebind.example:${sitePort}`, `127.0.0.1:${sitePort}`],
    })
    try {
      expect(
        await codeOf(request(`http://rebind.example:${canaryPort}/`, { dispatcher: wrongPort })),
      ).toBe('blocked')
    } finally {
      await wrongPort.close()
    }
    expect(canaryHits).toBe(0)
    // control: with the canary's own pair allowed the connection happens and is counted, which
    // shows the zero counts above are real
    const lookup = scriptedLookup([['127.0.0.1']])
    const allowed = createGuardedAgent({ lookup, allow: [`rebind.example:${canaryPort}`] })
    try {
      const response = await request(`http://rebind.example:${canaryPort}/`, {
        dispatcher: allowed,
      })
      expect(await response.body.text()).toBe('canary')
    } finally {
      await allowed.close()
    }
    expect(canaryHits).toBe(1)
    canaryHits = 0
  })
})
