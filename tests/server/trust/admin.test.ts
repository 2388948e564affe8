import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { trustAnalyticsSchema, trustItemsSchema } from '../../../contract/trust.ts'
import { createLogger } from '../../../server/logger.ts'
import { createViewCounter } from '../../../server/modules/trust/views.ts'
import { linkIn } from '../../support/smtp.ts'
import { type Body, uploadFile } from '../answering/helpers.ts'
import { call, get, insertUser, post, signIn, type TestApp, withMailApp } from '../auth/helpers.ts'
import { asking, publishedPage } from './helpers.ts'

/**
 * The trust centre's administration (issue 40): what of the repository and the library can go on
 * the page (admins and approvers), the page's figures over time (admins), counted views, and the
 * admins told in the app (and by one email each, as they choose) when a request waits for them.
 */
const { ctx, smtp } = withMailApp({ jobs: true })
const T = paths.trust
const P = paths.publicTrust
const DAY_MS = 86_400_000
const today = () => new Date().toISOString().slice(0, 10)

async function person(app: TestApp, role: 'admin' | 'approver' | 'contributor', orgId?: number) {
  const fixture = await insertUser(app.database, { role, orgId })
  return { ...fixture, token: (await signIn(app, fixture.email)).access }
}

/** A reader session of an allow-listed visitor: the JSON exchange of the emailed link. */
async function readerOf(
  app: TestApp,
  slug: string,
  version: number,
  email: string,
  company: string,
) {
  expect((await post(app, P.requests(slug), asking(version, email, company))).body).toEqual({
    status: 'approved',
  })
  const mail = await smtp.waitFor(email, { subject: /Your access/ })
  const token = linkIn(mail, `/trust/${slug}`).searchParams.get('access') ?? ''
  const session = await post(app, P.session(slug), { token })
  expect(session.status, JSON.stringify(session.body)).toBe(200)
  return session.body.access as string
}

describe('what can go on the trust centre (issue 40)', () => {
  it('lists the files by name and the library’s answers by question, each with its visibility; to admins and approvers', async () => {
    const admin = await person(ctx, 'admin')
    const approver = await person(ctx, 'approver', admin.orgId)
    const contributor = await person(ctx, 'contributor', admin.orgId)
    const zeta = await uploadFile(ctx, admin.token, 'zeta policy.txt', 'Backups nightly.')
    const alpha = await uploadFile(ctx, admin.token, 'Alpha report.txt', 'Audited yearly.')
    const later = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Is data encrypted at rest?', answer: 'Yes.' },
      admin.token,
    )
    const first = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you back up data?', answer: 'Nightly.' },
      admin.token,
    )
    await post(ctx, T.file(alpha), { visibility: 'nda' }, admin.token)
    await post(ctx, T.qa(later.body.id), { visibility: 'public' }, admin.token)

    const items = await get(ctx, T.items, approver.token)
    expect(items.status, JSON.stringify(items.body)).toBe(200)
    expect(trustItemsSchema.safeParse(items.body).success).toBe(true)
    expect(items.body.files.map((file: Body) => [file.id, file.name, file.visibility])).toEqual([
      [alpha, 'Alpha report.txt', 'nda'],
      [zeta, 'zeta policy.txt', 'private'],
    ])
    expect(items.body.files[0].size).toBe('Audited yearly.'.length)
    expect(items.body.qa).toEqual([
      {
        id: first.body.id,
        question: 'Do you back up data?',
        answer: 'Nightly.',
        visibility: 'private',
      },
      {
        id: later.body.id,
        question: 'Is data encrypted at rest?',
        answer: 'Yes.',
        visibility: 'public',
      },
    ])
    expect((await get(ctx, T.items, contributor.token)).status).toBe(403)
    // another organisation sees its own (none of these)
    const other = await person(ctx, 'admin')
    expect((await get(ctx, T.items, other.token)).body).toEqual({ files: [], qa: [] })
  })
})

describe('the trust centre’s figures (issue 40)', () => {
  it('counts views, requests, approvals (a revoked grant still counts) and downloads per day, per document and per company', async () => {
    const page = await publishedPage(ctx, { auto_approve_domains: ['acme.example'] })
    const publicDoc = await uploadFile(ctx, page.token, 'Overview.txt', 'We protect data.')
    await post(ctx, T.file(publicDoc), { visibility: 'public' }, page.token)

    // two views of the HTML page (its JSON, read by its script, is no view); a page not there none
    expect((await ctx.app.request(`/trust/${page.slug}`)).status).toBe(200)
    expect((await ctx.app.request(`/trust/${page.slug}`)).status).toBe(200)
    expect((await get(ctx, P.page(page.slug))).status).toBe(200)
    expect((await ctx.app.request(`/trust/${page.slug}-nobody`)).status).toBe(404)

    // Acme asks three times under two spellings: once approved by an admin, then revoked, and
    // twice approved at once; Other Co asks and is rejected
    const pending = await post(
      ctx,
      P.requests(page.slug),
      asking(page.ndaVersion, `pat.${Date.now()}@gmail.example`, 'Acme'),
    )
    expect(pending.body).toEqual({ status: 'pending' })
    const list = await get(ctx, T.requests, page.token)
    const asked = list.body.results[0].id
    expect((await post(ctx, T.request(asked, 'approve'), {}, page.token)).status).toBe(200)
    expect((await post(ctx, T.request(asked, 'revoke'), {}, page.token)).status).toBe(200)
    const ann = `ann.${Date.now()}@acme.example`
    const access = await readerOf(ctx, page.slug, page.ndaVersion, ann, 'acme ')
    await readerOf(ctx, page.slug, page.ndaVersion, `bo.${Date.now()}@acme.example`, 'ACME Inc')
    await post(
      ctx,
      P.requests(page.slug),
      asking(page.ndaVersion, `cy.${Date.now()}@other.example`, 'Other Co'),
    )
    const other = (await get(ctx, T.requests, page.token)).body.results[0].id
    await post(ctx, T.request(other, 'reject'), {}, page.token)

    // Ann downloads the NDA report twice, an anonymous visitor the public overview once
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.request(apiPath(P.download(page.slug, page.file)), {
        headers: { authorization: `Bearer ${access}` },
      })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    }
    expect((await ctx.app.request(apiPath(P.download(page.slug, publicDoc)))).status).toBe(200)

    // something of before the period: a day's views and a request 40 days ago
    const { pool } = ctx.database
    const old = new Date(Date.now() - 40 * DAY_MS)
    await pool.query(`insert into trust_page_views (org_id, day, views) values ($1, $2, 7)`, [
      page.admin.orgId,
      old.toISOString().slice(0, 10),
    ])
    await pool.query(
      `insert into trust_requests (org_id, name, email, company, nda_version, nda_text,
          status, created_at)
       values ($1, 'Old', 'old@acme.example', 'Acme', 1, 'x', 'pending', $2)`,
      [page.admin.orgId, old],
    )

    const res = await get(ctx, T.analytics, page.token)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(trustAnalyticsSchema.safeParse(res.body).success).toBe(true)
    const figures = res.body
    expect(figures.days).toBe(30)
    expect(figures.series).toHaveLength(30)
    const days = figures.series.map((row: Body) => row.day)
    expect(days.at(-1)).toBe(today())
    // every day, oldest first, one apart
    for (let i = 1; i < days.length; i++)
      expect(Date.parse(days[i]) - Date.parse(days[i - 1])).toBe(DAY_MS)
    expect(figures.series.at(-1)).toEqual({
      day: today(),
      views: 2,
      requests: 4,
      approvals: 3,
      downloads: 3,
    })
    expect(figures.totals).toEqual({ views: 2, requests: 4, approvals: 3, downloads: 3 })
    expect(figures.documents).toEqual([
      { id: page.file, name: 'Pen test 2026.pdf', downloads: 2, readers: 1 },
      { id: publicDoc, name: 'Overview.txt', downloads: 1, readers: 0 },
    ])
    expect(figures.companies).toEqual([
      // told apart ignoring case; named as the latest request spells it; most requests first
      { company: 'acme', requests: 2, approvals: 2, downloads: 2 },
      { company: 'ACME Inc', requests: 1, approvals: 1, downloads: 0 },
      { company: 'Other Co', requests: 1, approvals: 0, downloads: 0 },
    ])

    // a longer period takes in what came before
    const longer = await get(ctx, `${T.analytics}?days=60`, page.token)
    expect(longer.body.series).toHaveLength(60)
    expect(longer.body.totals).toEqual({ views: 9, requests: 5, approvals: 3, downloads: 3 })
    expect(longer.body.companies[0]).toEqual({
      company: 'acme',
      requests: 3,
      approvals: 2,
      downloads: 2,
    })
    const one = await get(ctx, `${T.analytics}?days=1`, page.token)
    expect(one.body.series).toEqual([
      { day: today(), views: 2, requests: 4, approvals: 3, downloads: 3 },
    ])

    // the period is 1 to 365 days, said in words
    for (const [days, words] of [
      ['0', 'At least a day'],
      ['366', 'At most a year'],
      ['1.5', ''],
      ['many', ''],
    ] as const) {
      const bad = await get(ctx, `${T.analytics}?days=${days}`, page.token)
      expect(bad.status, days).toBe(400)
      expect(bad.body.code).toBe('validation_error')
      expect(bad.body.msg).toContain(words)
    }
    // the page's figures are its admins' alone
    const approver = await person(ctx, 'approver', page.admin.orgId)
    expect((await get(ctx, T.analytics, approver.token)).status).toBe(403)
    const stranger = await person(ctx, 'admin')
    const theirs = await get(ctx, T.analytics, stranger.token)
    expect(theirs.body.totals).toEqual({ views: 0, requests: 0, approvals: 0, downloads: 0 })
    expect(theirs.body.documents).toEqual([])
    expect(theirs.body.companies).toEqual([])
  })

  it('keeps the views counted in memory until they are written, and writes them once', async () => {
    const page = await publishedPage(ctx)
    for (let i = 0; i < 5; i++) await ctx.app.request(`/trust/${page.slug}`)
    // the JSON the page's script reads is the same visit: not counted again
    await get(ctx, P.page(page.slug))
    const first = await get(ctx, `${T.analytics}?days=1`, page.token)
    expect(first.body.totals.views).toBe(5)
    // written: asking again adds nothing
    const again = await get(ctx, `${T.analytics}?days=1`, page.token)
    expect(again.body.totals.views).toBe(5)
    const { rows } = await ctx.database.pool.query(
      'select views from trust_page_views where org_id = $1',
      [page.admin.orgId],
    )
    expect(rows).toEqual([{ views: 5 }])
  })
})

describe('the page’s view counter (issue 40)', () => {
  it('writes by its own timer, keeps what a failed write could not add, and writes the rest at the close', async () => {
    const page = await publishedPage(ctx)
    const logger = createLogger('silent')
    const { pool } = ctx.database
    const viewsOf = async () =>
      (
        await pool.query<{ views: number }>(
          'select views from trust_page_views where org_id = $1',
          [page.admin.orgId],
        )
      ).rows.map((row) => row.views)
    const counter = createViewCounter({ pool, logger, flushMs: 30 })
    counter.count(page.admin.orgId)
    counter.count(page.admin.orgId)
    for (let i = 0; i < 100 && (await viewsOf()).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await viewsOf()).toEqual([2])

    // the database away: nothing lost, all written on the next try
    let down = true
    const flaky = {
      query: (...args: Parameters<typeof pool.query>) =>
        down ? Promise.reject(new Error('connection refused')) : pool.query(...args),
    } as unknown as typeof pool
    const other = createViewCounter({ pool: flaky, logger, flushMs: 60_000 })
    other.count(page.admin.orgId)
    await other.flush()
    expect(await viewsOf()).toEqual([2])
    other.count(page.admin.orgId)
    down = false
    await other.close()
    expect(await viewsOf()).toEqual([4])
    await counter.close()
  })
})

describe('a request that waits, told to the admins (issue 40)', () => {
  it('tells each admin in the app and by one email, as each chose; an approval at once tells nobody', async () => {
    const page = await publishedPage(ctx, { auto_approve_domains: ['trusted.example'] })
    const quiet = await person(ctx, 'admin', page.admin.orgId)
    const approver = await person(ctx, 'approver', page.admin.orgId)
    const mailed = await person(ctx, 'admin', page.admin.orgId)
    const away = await person(ctx, 'admin', page.admin.orgId)
    // the other admins choose: the app only, email only, nothing
    for (const [admin, channel] of [
      [quiet, 'in_app'],
      [mailed, 'email'],
      [away, 'off'],
    ] as const) {
      const chose = await call(ctx, 'PUT', paths.me.notificationPreferences, {
        token: admin.token,
        body: { preferences: { trust_request: channel } },
      })
      expect(chose.status, JSON.stringify(chose.body)).toBe(200)
      expect(chose.body.preferences.trust_request).toBe(channel)
    }

    const email = `priya.${Date.now()}@acme.test`
    const asked = await post(ctx, P.requests(page.slug), {
      ...asking(page.ndaVersion, email, 'Acme'),
      name: 'Priya Shah',
    })
    expect(asked.body).toEqual({ status: 'pending' })
    const text = `Priya Shah (${email}, Acme) asks for the trust centre's documents under NDA.`
    for (const admin of [page, quiet]) {
      const told = await get(ctx, paths.notifications.list, admin.token)
      expect(told.body.results[0]).toMatchObject({
        kind: 'trust_request',
        text,
        actor: null,
        questionnaire_id: null,
      })
      expect(told.body.unread).toBe(1)
    }
    for (const other of [approver, mailed, away])
      expect((await get(ctx, paths.notifications.list, other.token)).body.results).toEqual([])

    // one email to the first admin (with the reason), none to the one who chose the app only
    const mail = await smtp.waitFor(page.admin.email, { subject: /asks to read your documents/ })
    expect(mail.text).toContain('Their reason: Vendor review')
    await smtp.waitFor(mailed.email, { subject: /asks to read your documents/ })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(smtp.to(page.admin.email)).toHaveLength(1)
    expect(smtp.to(mailed.email)).toHaveLength(1)
    expect(smtp.to(quiet.email)).toHaveLength(0)
    expect(smtp.to(away.email)).toHaveLength(0)
    expect(smtp.to(approver.email)).toHaveLength(0)
    const { rows } = await ctx.database.pool.query(
      `select email from notifications where org_id = $1 and kind = 'trust_request'`,
      [page.admin.orgId],
    )
    expect(rows).toEqual([{ email: null }, { email: null }])

    // approved at once: nobody is told
    await post(
      ctx,
      P.requests(page.slug),
      asking(page.ndaVersion, `tia.${Date.now()}@trusted.example`),
    )
    expect((await get(ctx, paths.notifications.list, page.token)).body.results).toHaveLength(1)
  })
})
