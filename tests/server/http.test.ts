import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorSchema } from '../../contract/errors.ts'
import { compressJson } from '../../server/http/compress-json.ts'
import { createTestApp } from './support.ts'

const SHELL =
  '<!doctype html><html><head><title>Quire</title></head><body><div id="root"></div></body></html>'
const ASSET = `console.log(${JSON.stringify('x'.repeat(4000))})`

describe('HTTP layer', () => {
  let ctx: Awaited<ReturnType<typeof createTestApp>>
  let dist: string
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'quire-dist-'))
    mkdirSync(path.join(dist, 'assets'))
    writeFileSync(path.join(dist, 'index.html'), SHELL)
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), ASSET)
    writeFileSync(path.join(dist, 'assets', 'index-AbC123.js.gz'), gzipSync(ASSET))
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    ctx = await createTestApp({ distDir: dist })
  })
  afterAll(async () => {
    await ctx.close()
    rmSync(dist, { recursive: true, force: true })
  })

  it('answers unknown /api paths with a JSON 404 in the error shape', async () => {
    for (const url of ['/api/v1/no-such-thing/', '/api/v2/health', '/api/anything']) {
      const res = await ctx.app.request(url, { method: 'POST' })
      expect(res.status, url).toBe(404)
      expect(res.headers.get('content-type')).toContain('application/json')
      const body = errorSchema.parse(await res.json())
      expect(body).toEqual({ error: 'No such API endpoint', code: 'not_found' })
    }
  })

  it('AS10: HTML and API responses carry a strict CSP, nosniff, no framing and a strict referrer policy', async () => {
    for (const url of ['/', '/repository', '/api/v1/health', '/api/v1/missing']) {
      const res = await ctx.app.request(url)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp, url).toContain("frame-ancestors 'none'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).not.toContain('unsafe-eval')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
    }
  })

  it('serves the SPA shell for client routes (history fallback), revalidated on each load', async () => {
    for (const url of ['/', '/login', '/questionnaire/12', '/forgot-password']) {
      const res = await ctx.app.request(url)
      expect(res.status, url).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toBe(SHELL)
    }
  })

  it('LT8: link pages whose address carries a token are no-store and send no referrer', async () => {
    for (const url of [
      '/reset-password?uid=1&token=x',
      '/set-password?uid=1&token=x',
      '/confirm_email?uuid=x',
      '/reset-password/',
    ]) {
      const res = await ctx.app.request(url)
      expect(res.status, url).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(res.headers.get('cache-control'), url).toBe('no-store')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      expect(await res.text()).toBe(SHELL)
    }
  })

  it('serves hashed assets as immutable, pre-compressed when the client accepts gzip', async () => {
    const res = await ctx.app.request('/assets/index-AbC123.js', {
      headers: { 'accept-encoding': 'gzip, deflate' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('content-type')).toContain('text/javascript')
    const plain = await ctx.app.request('/assets/index-AbC123.js')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(ASSET)
  })

  it('answers 304 to a matching ETag', async () => {
    const first = await ctx.app.request('/favicon.svg')
    const etag = first.headers.get('etag')
    expect(etag).toBeTruthy()
    const second = await ctx.app.request('/favicon.svg', {
      headers: { 'if-none-match': etag ?? '' },
    })
    expect(second.status).toBe(304)
  })

  it('answers a missing file with 404, not the shell', async () => {
    const res = await ctx.app.request('/assets/missing-123.js')
    expect(res.status).toBe(404)
  })

  it('gives every response a request id, keeping a well-formed incoming one', async () => {
    const generated = await ctx.app.request('/api/v1/health')
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const kept = await ctx.app.request('/api/v1/health', {
      headers: { 'x-request-id': 'trace-12345678' },
    })
    expect(kept.headers.get('x-request-id')).toBe('trace-12345678')
    const replaced = await ctx.app.request('/api/v1/health', {
      headers: { 'x-request-id': 'bad id\n' },
    })
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id\n')
  })

  it('refuses an oversized API body with 413 in the error shape', async () => {
    const res = await ctx.app.request('/api/v1/health', {
      method: 'POST',
      body: 'x'.repeat(1024 * 1024 + 10),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(413)
    expect(errorSchema.parse(await res.json()).code).toBe('payload_too_large')
  })
})

describe('JSON compression', () => {
  const big = { items: Array.from({ length: 2_000 }, (_, i) => ({ id: i, text: `answer ${i}` })) }
  const app = new Hono()
  app.use('*', compressJson())
  app.get('/big', (c) => c.json(big, 201, { 'X-Kept': 'yes' }))
  app.get('/small', (c) => c.json({ ok: true }))
  app.get('/text', (c) => c.text('x'.repeat(5_000)))

  it('gzips a large JSON body for a client that accepts it, keeping status and headers', async () => {
    const res = await app.request('/big', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(res.status).toBe(201)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(res.headers.get('x-kept')).toBe('yes')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.length).toBeLessThan(JSON.stringify(big).length / 3)
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(big)
  })

  it('leaves small bodies, other types and clients without gzip alone', async () => {
    const small = await app.request('/small', { headers: { 'accept-encoding': 'gzip' } })
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(await small.json()).toEqual({ ok: true })
    const text = await app.request('/text', { headers: { 'accept-encoding': 'gzip' } })
    expect(text.headers.get('content-encoding')).toBeNull()
    const plain = await app.request('/big')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.json()).toEqual(big)
  })
})
