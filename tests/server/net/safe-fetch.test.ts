import { createServer } from 'node:http'
import { fetch, request } from 'undici'
import { describe, expect, it } from 'vitest'
import {
  checkUrl,
  createGuardedAgent,
  type LookupFunction,
  resolveCheckedAddresses,
  safeFetch,
  UrlFetchError,
} from '../../../server/net/safe-fetch.ts'
import {
  allow,
  canaryHits,
  canaryPort,
  codeOf,
  fetchServers,
  listen,
  PUBLIC_V4,
  resetCanaryHits,
  SECRET,
  scriptedLookup,
  sitePort,
} from './safe-fetch-servers.ts'

// Scheme, port, size and time (SS1), redirects (SS3) and DNS rebinding (SS4); the blocked
// addresses (SS2) are in safe-fetch-addresses.test.ts.
fetchServers()

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
    resetCanaryHits()
  })
})
