import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { TRUST_TEXTS, trustReaderSchema } from '../../../contract/trust.ts'
import { TRUST_CSP, TRUST_SHELL_CSP } from '../../../server/modules/trust/html.ts'
import { READER_COOKIE } from '../../../server/modules/trust/routes.ts'
import { linkIn } from '../../support/smtp.ts'
import { uploadFile } from '../answering/helpers.ts'
import { get, post, type TestApp, withMailApp } from '../auth/helpers.ts'
import { asking, publishedPage } from './helpers.ts'

/**
 * The trust centre in a browser (issue 40): the JSON exchange of the emailed link sets the same
 * HttpOnly reader cookie as the page's form, so plain links download what is under NDA; the
 * reader call says whose session this browser holds (never a staff session's); the page shows
 * the organisation's logo, served for a published page only; with the web app built, the page
 * carries it and its policy lets it run; and nothing private is on any of these answers.
 */
const distDir = mkdtempSync(path.join(tmpdir(), 'quire-trust-dist-'))
mkdirSync(path.join(distDir, 'assets'))
writeFileSync(path.join(distDir, 'assets', 'index-T3st.js'), 'console.log("app")\n')
writeFileSync(path.join(distDir, 'assets', 'chunk-Pre1.js'), 'export const x = 1\n')
writeFileSync(path.join(distDir, 'assets', 'index-Sty1.css'), 'body{color:black}\n')
writeFileSync(
  path.join(distDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>Quire</title>
    <script type="module" crossorigin src="/assets/index-T3st.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/chunk-Pre1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-Sty1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`,
)
const { ctx, smtp } = withMailApp({ jobs: true, distDir })
const T = paths.trust
const P = paths.publicTrust
const CANARY = 'CANARY-5d1e2-private'
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.alloc(64, 7),
])

const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
const request = (app: TestApp, at: string, headers: Record<string, string> = {}) =>
  app.app.request(at, { headers })
const readerAt = async (app: TestApp, slug: string, headers: Record<string, string> = {}) => {
  const res = await request(app, apiPath(P.reader(slug)), headers)
  const body = await res.json()
  return { status: res.status, body, cookie: res.headers.get('set-cookie') }
}

/** An approved visitor's one-time link, exchanged by the JSON call. */
async function exchanged(app: TestApp, page: Awaited<ReturnType<typeof publishedPage>>) {
  const email = `rita.${Date.now()}@reader.example`
  await post(app, P.requests(page.slug), asking(page.ndaVersion, email))
  const mail = await smtp.waitFor(email, { subject: /Your access/ })
  const token = linkIn(mail, `/trust/${page.slug}`).searchParams.get('access') ?? ''
  const res = await app.app.request(apiPath(P.session(page.slug)), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  })
  return { email, res, body: (await res.json()) as Record<string, string> }
}

describe('the reader session in a browser (issue 40)', () => {
  it('the JSON exchange sets the reader cookie; the reader call names it; plain links download with it', async () => {
    const page = await publishedPage(ctx, { auto_approve_domains: ['reader.example'] })
    const { email, res, body } = await exchanged(ctx, page)
    expect(res.status, JSON.stringify(body)).toBe(200)
    // the JSON answer is as it was
    expect(Object.keys(body).sort()).toEqual(['access', 'email', 'expires_at'])
    expect(body.access).toMatch(/^tr_/)
    const setCookie = res.headers.get('set-cookie') ?? ''
    expect(setCookie).toContain(`${READER_COOKIE}=${body.access}`)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Strict/i)
    expect(setCookie).toMatch(/Path=\//)
    // the public URL of the tests is http: no Secure flag; the cookie ends with the grant
    expect(setCookie).not.toMatch(/Secure/i)
    const expires = /Expires=([^;]+)/i.exec(setCookie)?.[1] ?? ''
    expect(Math.abs(Date.parse(expires) - Date.parse(body.expires_at ?? ''))).toBeLessThan(1000)
    const cookie = cookieOf(res)

    // no cookie, no reader; the cookie or the token: the reader, until when
    const none = await readerAt(ctx, page.slug)
    expect(none.status).toBe(200)
    expect(none.body).toEqual({ reader: null })
    const byCookie = await readerAt(ctx, page.slug, { cookie })
    expect(trustReaderSchema.safeParse(byCookie.body).success).toBe(true)
    expect(byCookie.body).toEqual({ reader: { email, expires_at: body.expires_at } })
    expect(byCookie.cookie).toBeNull()
    const byToken = await readerAt(ctx, page.slug, { authorization: `Bearer ${body.access}` })
    expect(byToken.body).toEqual(byCookie.body)

    // a plain link (the cookie alone) downloads the PDF under NDA
    const download = await request(ctx, apiPath(P.download(page.slug, page.file)), { cookie })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toContain('pdf')

    // a staff session is never a reader, by header or in the cookie
    for (const headers of [
      { authorization: `Bearer ${page.token}` },
      { cookie: `${READER_COOKIE}=${page.token}` },
    ] as Record<string, string>[])
      expect((await readerAt(ctx, page.slug, headers)).body).toEqual({ reader: null })
    // another organisation's page knows nothing of it
    const other = await publishedPage(ctx)
    expect((await readerAt(ctx, other.slug, { cookie })).body).toEqual({ reader: null })
    // unknown and unpublished pages answer as the page does
    const unknown = await readerAt(ctx, `${page.slug}-nobody`, { cookie })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toBe(TRUST_TEXTS.notFound)
    await post(ctx, T.settings, { published: false }, other.token)
    const unpublished = await readerAt(ctx, other.slug)
    expect(unpublished.status).toBe(404)
    expect(unpublished.body).toEqual(unknown.body)

    // expired, then revoked: no reader
    const { pool } = ctx.database
    await pool.query(
      `update trust_requests set expires_at = now() - interval '1 minute' where email = $1`,
      [email],
    )
    expect((await readerAt(ctx, page.slug, { cookie })).body).toEqual({ reader: null })
    await pool.query(
      `update trust_requests set expires_at = now() + interval '1 day' where email = $1`,
      [email],
    )
    expect((await readerAt(ctx, page.slug, { cookie })).body.reader?.email).toBe(email)
    const id = (await get(ctx, T.requests, page.token)).body.results[0].id
    await post(ctx, T.request(id, 'revoke'), {}, page.token)
    expect((await readerAt(ctx, page.slug, { cookie })).body).toEqual({ reader: null })
    expect((await request(ctx, apiPath(P.download(page.slug, page.file)), { cookie })).status).toBe(
      401,
    )
  })

  it('a used or wrong link sets no cookie', async () => {
    const page = await publishedPage(ctx)
    const res = await ctx.app.request(apiPath(P.session(page.slug)), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'not-a-real-token-at-all' }),
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('set-cookie')).toBeNull()
  })
})

describe('the organisation’s logo on the trust centre (issue 40)', () => {
  it('is served for a published page only, shown in the page’s header, and answers alike otherwise', async () => {
    const page = await publishedPage(ctx)
    const bare = await publishedPage(ctx)
    const set = await ctx.app.request(apiPath(paths.account.organizationLogo), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${page.token}`,
        'content-type': 'application/octet-stream',
      },
      body: new Uint8Array(PNG),
    })
    expect(set.status).toBe(200)
    expect((await get(ctx, P.page(page.slug))).body.organization).toEqual({
      name: 'Fixture org',
      logo: true,
    })
    const logo = await request(ctx, apiPath(P.logo(page.slug)))
    expect(logo.status).toBe(200)
    expect(logo.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true)
    expect(logo.headers.get('set-cookie')).toBeNull()
    const etag = logo.headers.get('etag') ?? ''
    expect((await request(ctx, apiPath(P.logo(page.slug)), { 'if-none-match': etag })).status).toBe(
      304,
    )
    const html = await (await request(ctx, `/trust/${page.slug}`)).text()
    expect(html).toContain(
      `<img class="logo" src="${apiPath(P.logo(page.slug))}" alt="Fixture org logo">`,
    )
    // a page without a logo shows none, and its logo is not there
    expect(await (await request(ctx, `/trust/${bare.slug}`)).text()).not.toContain('<img')
    const none = await request(ctx, apiPath(P.logo(bare.slug)))
    const unknown = await request(ctx, apiPath(P.logo(`${page.slug}-nobody`)))
    expect(none.status).toBe(404)
    expect(unknown.status).toBe(404)
    const noneBody = await none.json()
    expect(noneBody).toEqual(await unknown.json())
    expect(noneBody.error).toBe(TRUST_TEXTS.notFound)
    // unpublished: gone at once
    await post(ctx, T.settings, { published: false }, page.token)
    const hidden = await request(ctx, apiPath(P.logo(page.slug)))
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual(noneBody)
  })
})

describe('the page with the web app built (issue 40)', () => {
  it('carries the app’s scripts and styles, mounts it on #root, and lets only what it needs load', async () => {
    const page = await publishedPage(ctx, { overview: 'Security first.' })
    const res = await request(ctx, `/trust/${page.slug}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toBe(TRUST_SHELL_CSP)
    const html = await res.text()
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain(
      '<script type="module" crossorigin src="/assets/index-T3st.js"></script>',
    )
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/chunk-Pre1.js">')
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Sty1.css">')
    expect(head).not.toContain('favicon')
    // everything in <body> is inside #root, and still reads without JavaScript
    expect(html).toMatch(
      /<body><div id="root"><div class="tp"><main>[\s\S]*<\/main><\/div><\/div><\/body>/,
    )
    expect(html).toContain('Security first.')
    // the page's own style block is the one the policy allows by hash
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''
    const hash = createHash('sha256').update(style).digest('base64')
    expect(TRUST_SHELL_CSP).toContain(`style-src 'self' 'sha256-${hash}'`)
    expect(TRUST_SHELL_CSP).toContain("script-src 'self'")
    expect(TRUST_SHELL_CSP).not.toContain('unsafe')
    // the app's files load under it (same origin), with the app's own headers
    const script = await request(ctx, '/assets/index-T3st.js')
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toContain('javascript')
    expect((await request(ctx, '/assets/index-Sty1.css')).status).toBe(200)

    // what is not the page runs nothing: unknown pages and a bad link's answer
    const unknown = await request(ctx, `/trust/${page.slug}-nobody`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('content-security-policy')).toBe(TRUST_CSP)
    expect(await unknown.text()).not.toContain('<script')
    const bad = await ctx.app.request(`/trust/${page.slug}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=not-a-real-token-at-all',
    })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('content-security-policy')).toBe(TRUST_CSP)
    expect(await bad.text()).not.toContain('<script')
  })
})

describe('nothing private on the new public calls (issue 40)', () => {
  it('the reader call, the logo and the page never carry a private document or item', async () => {
    const page = await publishedPage(ctx, { auto_approve_domains: ['reader.example'] })
    const privateDoc = await uploadFile(ctx, page.token, 'Board minutes.txt', `Secret ${CANARY}.`)
    await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'What is the vault password?', answer: `It is ${CANARY}` },
      page.token,
    )
    await ctx.app.request(apiPath(paths.account.organizationLogo), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${page.token}`,
        'content-type': 'application/octet-stream',
      },
      body: new Uint8Array(PNG),
    })
    const { body } = await exchanged(ctx, page)
    const headers = { cookie: `${READER_COOKIE}=${body.access}` }
    const answers = await Promise.all(
      [
        apiPath(P.page(page.slug)),
        apiPath(P.reader(page.slug)),
        apiPath(P.logo(page.slug)),
        apiPath(P.download(page.slug, privateDoc)),
        `/trust/${page.slug}`,
      ].map(async (at) => {
        const res = await request(ctx, at, headers)
        return { at, status: res.status, text: Buffer.from(await res.arrayBuffer()).toString() }
      }),
    )
    for (const answer of answers) {
      expect(answer.text, answer.at).not.toContain(CANARY)
      expect(answer.text, answer.at).not.toContain('Board minutes')
      expect(answer.text, answer.at).not.toContain('vault password')
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 404, 200])
  })
})
