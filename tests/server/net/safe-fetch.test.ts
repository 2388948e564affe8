import { createServer, type Server } from 'node:http'
import fc from 'fast-check'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkUrl,
  createGuardedAgent,
  isBlockedAddress,
  safeFetch,
} from '../../../server/net/safe-fetch.ts'

let canary: Server
let port = 0
let hits = 0
beforeAll(async () => {
  canary = createServer((req, res) => {
    hits += 1
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(Buffer.alloc(2048, 0x61))
      return
    }
    if (req.url === '/slow') return // never answers
    if (req.url === '/error') {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('SECRET STACK TRACE')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<p>ok</p>')
  })
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve))
  port = (canary.address() as { port: number }).port
})
afterAll(() => {
  canary.close()
})

describe('safe fetch', () => {
  it('SS2: loopback, private and metadata addresses in every spelling are blocked, with zero canary hits', async () => {
    const before = hits
    const urls = [
      `http://127.0.0.1:${port}/`,
      'http://127.0.0.1/',
      'http://localhost/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://169.254.169.254/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fc00::1]/',
      'http://[fe80::1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
    ]
    for (const url of urls) {
      expect(checkUrl(url).ok, url).toBe(false)
      await expect(safeFetch(url), url).rejects.toMatchObject({ code: 'blocked' })
    }
    expect(hits).toBe(before)
  })

  it('SS2: property — random private addresses are blocked, random public ones are not', () => {
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    )
    fc.assert(
      fc.property(privateV4, fc.nat(2), (parts, spelling) => {
        const dotted = parts.join('.')
        const number = parts.reduce((n, p) => n * 256 + p, 0)
        const host = [dotted, String(number), `0x${number.toString(16)}`][spelling] as string
        expect(isBlockedAddress(dotted)).toBe(true)
        expect(checkUrl(`http://${host}/`).ok).toBe(false)
        expect(isBlockedAddress(`::ffff:${dotted}`)).toBe(true)
      }),
    )
    fc.assert(
      fc.property(
        fc.tuple(
          fc.integer({ min: 11, max: 99 }),
          fc.nat(255),
          fc.nat(255),
          fc.integer({ min: 1, max: 254 }),
        ),
        (parts) => {
          expect(isBlockedAddress(parts.join('.'))).toBe(false)
        },
      ),
    )
  })

  it('SS1: only http(s) on 80/443 unless allowed; size and time caps; remote bodies never echoed', async () => {
    expect(checkUrl('ftp://example.com/a').ok).toBe(false)
    expect(checkUrl('http://example.com:8080/').ok).toBe(false)
    expect(checkUrl('http://user:pw@example.com/').ok).toBe(false)
    const allow = [`127.0.0.1:${port}`]
    const page = await safeFetch(`http://127.0.0.1:${port}/page.html`, { allow })
    expect(page).toMatchObject({
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      filename: 'page.html',
    })
    await expect(
      safeFetch(`http://127.0.0.1:${port}/big`, { allow, maxBytes: 1024 }),
    ).rejects.toMatchObject({ code: 'too_large' })
    await expect(
      safeFetch(`http://127.0.0.1:${port}/slow`, { allow, timeoutMs: 200 }),
    ).rejects.toMatchObject({ code: 'timeout' })
    const error = await safeFetch(`http://127.0.0.1:${port}/error`, { allow }).catch(
      (e: Error) => e,
    )
    expect(error).toMatchObject({
      code: 'http_status',
      message: 'The site answered 500 Internal Server Error',
    })
    expect(String((error as Error).message)).not.toContain('SECRET')
  })

  it('SS4: DNS rebinding is stopped at connect time by the dispatcher', async () => {
    const before = hits
    let calls = 0
    const agent = createGuardedAgent({
      lookup: (_host, _options, callback) => {
        // the name looked public when the URL was checked; at connect time it resolves to loopback
        calls += 1
        callback(null, [{ address: '127.0.0.1', family: 4 }])
      },
    })
    expect(checkUrl(`http://rebind.example/`).ok).toBe(true)
    const outcome = await request(`http://rebind.example:${port}/`, { dispatcher: agent }).then(
      () => 'connected',
      (error: Error & { cause?: { code?: string } }) =>
        error.cause?.code ?? (error as { code?: string }).code,
    )
    expect(outcome).toBe('blocked')
    expect(calls).toBeGreaterThan(0)
    await agent.close()
    expect(hits).toBe(before)
  })
})
