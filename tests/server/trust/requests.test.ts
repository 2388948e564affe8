import { extractText, getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { TRUST_REQUEST_TEXTS } from '../../../contract/trust.ts'
import { stampText } from '../../../server/modules/trust/stamp.ts'
import { linkIn } from '../../support/smtp.ts'
import { get, post, withMailApp } from '../auth/helpers.ts'
import { asking, publishedPage } from './helpers.ts'

/**
 * Requests under NDA (issue 40): a visitor accepts the page's NDA and asks; the admins are told;
 * an approval mails a one-time link that gives a reader session for the grant; a PDF downloaded
 * with it is stamped on every page with the reader's email and the day; a revocation ends it at
 * once; a domain on the allow-list is approved without waiting.
 */
const { ctx, smtp } = withMailApp({ jobs: true })
const T = paths.trust
const P = paths.publicTrust

async function textOf(bytes: ArrayBuffer) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  const { text } = await extractText(pdf, { mergePages: false })
  return text as string[]
}

describe('requests under NDA (issue 40)', () => {
  it('asks, is approved by an admin, reads a stamped PDF, and is revoked at once', async () => {
    const page = await publishedPage(ctx)
    const email = `vera.${Date.now()}@prospect.example`
    // the NDA must be accepted, in the version shown
    const unaccepted = await post(ctx, P.requests(page.slug), {
      ...asking(page.ndaVersion, email),
      nda_accepted: false,
    })
    expect(unaccepted.status).toBe(400)
    const stale = await post(ctx, P.requests(page.slug), asking(page.ndaVersion - 1, email))
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe(TRUST_REQUEST_TEXTS.ndaChanged)
    const asked = await post(ctx, P.requests(page.slug), asking(page.ndaVersion, email), undefined)
    expect(asked.status, JSON.stringify(asked.body)).toBe(201)
    expect(asked.body).toEqual({ status: 'pending' })
    // the admin is told, and sees the request with its NDA acceptance logged
    const told = await smtp.waitFor(page.admin.email, { subject: /asks to read your documents/ })
    expect(told.text).toContain(email)
    const list = await get(ctx, T.requests, page.token)
    const request = list.body.results[0]
    expect(request).toMatchObject({
      email,
      company: 'Prospect Ltd',
      status: 'pending',
      nda_version: page.ndaVersion,
      downloads: 0,
    })
    expect(request.address).toBeTruthy()
    // not yet: the document under NDA asks for access
    expect((await ctx.app.request(apiPath(P.download(page.slug, page.file)))).status).toBe(401)

    const approved = await post(ctx, T.request(request.id, 'approve'), {}, page.token)
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body.status).toBe('approved')
    const mail = await smtp.waitFor(email, { subject: /Your access/ })
    const link = linkIn(mail, `/trust/${page.slug}`)
    const token = link.searchParams.get('access') ?? ''
    const session = await post(ctx, P.session(page.slug), { token })
    expect(session.status, JSON.stringify(session.body)).toBe(200)
    expect(session.body.access).toMatch(/^tr_/)
    // the link works once
    const again = await post(ctx, P.session(page.slug), { token })
    expect(again.status).toBe(400)
    expect(again.body.error).toBe(TRUST_REQUEST_TEXTS.linkInvalid)

    const reader = { authorization: `Bearer ${session.body.access}` }
    const download = await ctx.app.request(apiPath(P.download(page.slug, page.file)), {
      headers: reader,
    })
    expect(download.status).toBe(200)
    const pages = await textOf(await download.arrayBuffer())
    for (const text of pages) expect(text).toContain(stampText(email, new Date()))
    expect(pages[0]).toContain('No critical findings remain open.')
    // a reader session is no staff session
    expect((await get(ctx, T.requests, session.body.access)).status).toBe(401)
    // every download is counted
    expect((await get(ctx, T.requests, page.token)).body.results[0].downloads).toBe(1)

    const revoked = await post(ctx, T.request(request.id, 'revoke'), {}, page.token)
    expect(revoked.body.status).toBe('revoked')
    const after = await ctx.app.request(apiPath(P.download(page.slug, page.file)), {
      headers: reader,
    })
    expect(after.status).toBe(401)
    // a decision is taken once
    expect((await post(ctx, T.request(request.id, 'approve'), {}, page.token)).status).toBe(409)
  })

  it('approves an allow-listed domain at once; another organisation cannot decide; a page’s link works on it only', async () => {
    const page = await publishedPage(ctx, {
      auto_approve_domains: ['trusted.example'],
      grant_days: 3,
    })
    const email = `ann.${Date.now()}@trusted.example`
    const asked = await post(ctx, P.requests(page.slug), asking(page.ndaVersion, email))
    expect(asked.body).toEqual({ status: 'approved' })
    const mail = await smtp.waitFor(email, { subject: /Your access/ })
    const token = linkIn(mail, `/trust/${page.slug}`).searchParams.get('access') ?? ''
    const list = await get(ctx, T.requests, page.token)
    const request = list.body.results[0]
    const days = (new Date(request.expires_at).getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(2.9)
    expect(days).toBeLessThan(3.1)
    // another organisation's admin sees none of it and decides nothing
    const other = await publishedPage(ctx)
    expect((await get(ctx, T.requests, other.token)).body.results).toEqual([])
    expect((await post(ctx, T.request(request.id, 'revoke'), {}, other.token)).status).toBe(404)
    // the token on another page is no token
    expect((await post(ctx, P.session(other.slug), { token })).status).toBe(400)
    expect((await post(ctx, P.session(page.slug), { token })).status).toBe(200)
    // an unknown page takes no request
    expect((await post(ctx, P.requests(`${page.slug}-x`), asking(0, email))).status).toBe(404)
  })
})

describe('the emailed link in a browser (issue 40)', () => {
  it('opens the documents by the visitor’s own click, into a cookie of their own; a scanner’s GET spends nothing', async () => {
    const page = await publishedPage(ctx, { auto_approve_domains: ['reader.example'] })
    const email = `rita.${Date.now()}@reader.example`
    await post(ctx, P.requests(page.slug), asking(page.ndaVersion, email))
    const mail = await smtp.waitFor(email, { subject: /Your access/ })
    const link = linkIn(mail, `/trust/${page.slug}`)
    // a link scanner's GET (twice): the page offers the button, the token stays unspent
    for (let i = 0; i < 2; i++) {
      const scanned = await ctx.app.request(`${link.pathname}${link.search}`)
      expect(scanned.status).toBe(200)
      expect(await scanned.text()).toContain('Open the documents')
    }
    const form = new URLSearchParams({ token: link.searchParams.get('access') ?? '' })
    const opened = await ctx.app.request(`/trust/${page.slug}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    })
    expect(opened.status).toBe(303)
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    expect(cookie).toMatch(/^quire_trust_reader=tr_/)
    expect(opened.headers.get('set-cookie')).toMatch(/HttpOnly/i)
    const reading = await ctx.app.request(`/trust/${page.slug}`, { headers: { cookie } })
    const html = await reading.text()
    expect(html).toContain(`Reading as ${email}`)
    expect(html).toContain(`href="${apiPath(P.download(page.slug, page.file))}"`)
    const download = await ctx.app.request(apiPath(P.download(page.slug, page.file)), {
      headers: { cookie },
    })
    expect(download.status).toBe(200)
    const pages = await textOf(await download.arrayBuffer())
    expect(pages[0]).toContain(stampText(email, new Date()))
    // the link clicked again says so, in words
    const again = await ctx.app.request(`/trust/${page.slug}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    })
    expect(again.status).toBe(400)
    expect(await again.text()).toContain(TRUST_REQUEST_TEXTS.linkInvalid)
  })
})
