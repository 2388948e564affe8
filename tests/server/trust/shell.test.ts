import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { TRUST_CSP, TRUST_SHELL_CSP, trustPageHtml } from '../../../server/modules/trust/html.ts'
import { shellOf, shellReader } from '../../../server/modules/trust/shell.ts'
import { trustPageOf } from '../../fixtures/trust.ts'

/**
 * The trust centre's page and the built web app (issue 40): the app's tags taken from its
 * index.html (its own module scripts, preloads and stylesheets under /assets/, nothing else), the
 * page wrapped for the app to mount on, and the two policies: without the app nothing runs; with
 * it, the app's own files only.
 */
const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <meta name="description" content="Quire" />
    <title>Quire</title>
    <script>window.inline = true</script>
    <script type="module" src="https://cdn.example.com/evil.js"></script>
    <script type="module" crossorigin src="/assets/index-DTUAeFG9.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/button-D1RxYwnF.js">
    <link rel="modulepreload" crossorigin href="https://cdn.example.com/x.js">
    <link rel="stylesheet" crossorigin href="/assets/index-DiK07sqN.css">
    <link rel="manifest" href="/assets/site.webmanifest">
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/assets/late.js"></script>
  </body>
</html>`

const PAGE = trustPageOf({ overview: 'We protect data.', nda: { version: 0, text: '' } })
const styleHash = (html: string) =>
  createHash('sha256')
    .update(/<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '')
    .digest('base64')

describe('the web app’s shell for the trust centre’s page (issue 40)', () => {
  it('takes the head’s module scripts, preloads and stylesheets of /assets/ only, in order', () => {
    expect(shellOf(BUILT)).toEqual({
      head:
        '<script type="module" crossorigin src="/assets/index-DTUAeFG9.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/button-D1RxYwnF.js">' +
        '<link rel="stylesheet" crossorigin href="/assets/index-DiK07sqN.css">',
    })
  })

  it('is none for a page that loads no app of its own (the development index, an empty file)', () => {
    expect(
      shellOf('<html><head><script type="module" src="/src/main.tsx"></script></head></html>'),
    ).toBeNull()
    expect(shellOf('')).toBeNull()
    expect(shellOf('<head><link rel="stylesheet" href="/assets/a.css"></head>')).toBeNull()
  })

  it('is read once the build is there, looked for again at most every ten seconds', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-shell-'))
    try {
      let clock = 0
      const read = shellReader(dir, () => clock)
      expect(read()).toBeNull()
      writeFileSync(path.join(dir, 'index.html'), BUILT)
      clock = 5_000
      expect(read()).toBeNull()
      clock = 10_001
      expect(read()?.head).toContain('/assets/index-DTUAeFG9.js')
      // once read, kept
      rmSync(path.join(dir, 'index.html'))
      clock = 100_000
      expect(read()?.head).toContain('/assets/index-DTUAeFG9.js')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the trust centre’s page and its policy, with and without the app (issue 40)', () => {
  const shell = shellOf(BUILT)

  it('without the app: no script, no #root, a policy that runs nothing', () => {
    const html = trustPageHtml(PAGE, (id) => `/d/${id}`)
    expect(html).not.toContain('<script')
    expect(html).not.toContain('id="root"')
    expect(html).toContain('<body><div class="tp"><main>')
    expect(TRUST_CSP).toBe(
      [
        "default-src 'none'",
        `style-src 'sha256-${styleHash(html)}'`,
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    )
  })

  it('with the app: its tags in the head, the whole body in #root, the app’s own files allowed', () => {
    const html = trustPageHtml(PAGE, (id) => `/d/${id}`, {}, shell)
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain(shell?.head)
    expect(html).toMatch(/<body><div id="root"><div class="tp"><main>[\s\S]*<\/div><\/div><\/body>/)
    expect(html).toContain('<p>We protect data.</p>')
    // the same style block either way: one hash for both policies
    expect(styleHash(html)).toBe(styleHash(trustPageHtml(PAGE, (id) => `/d/${id}`)))
    expect(TRUST_SHELL_CSP).toBe(
      [
        "default-src 'none'",
        "script-src 'self'",
        `style-src 'self' 'sha256-${styleHash(html)}'`,
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    )
  })

  it('scopes every rule of its style block to its own wrapper, so the app keeps its own look', () => {
    const html = trustPageHtml(PAGE, (id) => `/d/${id}`)
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''
    const selectors = [...style.matchAll(/(?:^|})([^{}]+)\{/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map((part) => part.trim()),
    )
    expect(selectors.length).toBeGreaterThan(10)
    for (const selector of selectors)
      expect(selector === 'body' || selector.startsWith('.tp'), selector).toBe(true)
  })
})
