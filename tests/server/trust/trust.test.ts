import { describe, expect, it } from 'vitest'
import { apiPath, paths } from '../../../contract/paths.ts'
import { TRUST_TEXTS } from '../../../contract/trust.ts'
import { type Body, uploadFile } from '../answering/helpers.ts'
import { call, get, insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { withTestApp } from '../support.ts'

/**
 * The trust centre, first slice (issue 40): the page's settings (admins), what of the repository
 * and the library is on it (admins and approvers), and the public page, which reads public items
 * only, answers an unknown slug and an unpublished page alike, and never shows a private one: a
 * canary planted in a private document and a private Q&A item never appears on any public answer.
 */
const ctx = withTestApp({ jobs: true })
const T = paths.trust
const P = paths.publicTrust
const CANARY = 'CANARY-7f3a9-private'

async function admin(app: TestApp) {
  const fixture = await insertUser(app.database, { role: 'admin' })
  return { ...fixture, token: (await signIn(app, fixture.email)).access }
}
const slugOf = () => `acme-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

async function qa(app: TestApp, token: string, question: string, answer: string) {
  const res = await post(app, paths.knowledgeBase.qa, { question, answer }, token)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return Number(res.body.id)
}

describe('the trust centre (issue 40)', () => {
  it('keeps its settings: a slug before publishing, one slug per organisation, the NDA versioned', async () => {
    const a = await admin(ctx)
    const fresh = await get(ctx, T.settings, a.token)
    expect(fresh.status).toBe(200)
    expect(fresh.body).toMatchObject({ published: false, slug: null, grant_days: 30 })
    const noSlug = await post(ctx, T.settings, { published: true }, a.token)
    expect(noSlug.status).toBe(400)
    expect(noSlug.body.error).toBe(TRUST_TEXTS.slugNeeded)
    const bad = await post(ctx, T.settings, { slug: 'A b' }, a.token)
    expect(bad.status).toBe(400)
    const slug = slugOf()
    const saved = await post(
      ctx,
      T.settings,
      { slug: slug.toUpperCase(), published: true, nda_text: 'Keep it secret.', grant_days: 14 },
      a.token,
    )
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body).toMatchObject({ slug, published: true, nda_version: 1, grant_days: 14 })
    // the same text again is the same version; a new text is the next
    expect(
      (await post(ctx, T.settings, { nda_text: 'Keep it secret.' }, a.token)).body.nda_version,
    ).toBe(1)
    expect(
      (await post(ctx, T.settings, { nda_text: 'Keep it safe.' }, a.token)).body.nda_version,
    ).toBe(2)
    const b = await admin(ctx)
    const taken = await post(ctx, T.settings, { slug }, b.token)
    expect(taken.status).toBe(409)
    expect(taken.body.error).toBe(TRUST_TEXTS.slugTaken)
  })

  it('shows public items only; unknown and unpublished pages answer alike; the canary never shows', async () => {
    const a = await admin(ctx)
    const slug = slugOf()
    const publicDoc = await uploadFile(
      ctx,
      a.token,
      'SOC 2 summary.txt',
      'Audited yearly by an independent firm.',
    )
    const ndaDoc = await uploadFile(
      ctx,
      a.token,
      'Pen test report.txt',
      'Findings were remediated.',
    )
    const privateDoc = await uploadFile(ctx, a.token, 'Board notes.txt', `Internal only ${CANARY}.`)
    const shown = await qa(ctx, a.token, 'Do you encrypt data at rest?', 'Yes, with AES-256.')
    await qa(ctx, a.token, 'What is the admin password policy?', `Internal ${CANARY}`)
    for (const [id, visibility] of [
      [publicDoc, 'public'],
      [ndaDoc, 'nda'],
    ] as const) {
      const res = await post(ctx, T.file(id), { visibility }, a.token)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    expect((await post(ctx, T.qa(shown), { visibility: 'public' }, a.token)).status).toBe(200)

    // not published yet: the same answer as a slug nobody has
    await post(ctx, T.settings, { slug }, a.token)
    const unpublished = await get(ctx, P.page(slug))
    const unknown = await get(ctx, P.page(`${slug}-nobody`))
    expect(unpublished.status).toBe(404)
    expect(unpublished.body).toEqual(unknown.body)
    expect(unpublished.body.error).toBe(TRUST_TEXTS.notFound)

    await post(
      ctx,
      T.settings,
      {
        published: true,
        overview: 'We protect customer data.',
        certifications: [{ name: 'SOC 2 Type II', date: '2026-03-01', file_id: publicDoc }],
        subprocessors: [{ name: 'AWS', purpose: 'Hosting', location: 'EU (Frankfurt)' }],
      },
      a.token,
    )
    const page = await get(ctx, P.page(slug))
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expect(page.body.practices).toEqual([
      { id: shown, question: 'Do you encrypt data at rest?', answer: 'Yes, with AES-256.' },
    ])
    expect(page.body.documents.map((d: Body) => [d.name, d.visibility]).sort()).toEqual([
      ['Pen test report.txt', 'nda'],
      ['SOC 2 summary.txt', 'public'],
    ])
    expect(page.body.certifications).toEqual([
      { name: 'SOC 2 Type II', date: '2026-03-01', document_id: publicDoc },
    ])
    expect(JSON.stringify(page.body)).not.toContain(CANARY)
    expect(JSON.stringify(page.body)).not.toContain('Board notes')
    expect(page.headers.get('set-cookie')).toBeNull()

    // a public document downloads; one under NDA asks for access; a private one is not there
    const download = await ctx.app.request(apiPath(P.download(slug, publicDoc)))
    expect(download.status).toBe(200)
    expect(await download.text()).toContain('Audited yearly')
    const nda = await ctx.app.request(apiPath(P.download(slug, ndaDoc)))
    expect(nda.status).toBe(401)
    for (const id of [privateDoc, 999_999_999]) {
      const res = await ctx.app.request(apiPath(P.download(slug, id)))
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain(CANARY)
    }
    // unpublished again: gone at once
    await post(ctx, T.settings, { published: false }, a.token)
    expect((await get(ctx, P.page(slug))).status).toBe(404)
    expect((await ctx.app.request(apiPath(P.download(slug, publicDoc)))).status).toBe(404)
  })

  it('another organisation’s file, item or page is not this one’s to publish', async () => {
    const a = await admin(ctx)
    const b = await admin(ctx)
    const file = await uploadFile(ctx, a.token, 'Policy.txt', `Secret ${CANARY}`)
    const item = await qa(ctx, a.token, 'Do you log access?', `Yes ${CANARY}`)
    expect((await post(ctx, T.file(file), { visibility: 'public' }, b.token)).status).toBe(404)
    expect((await post(ctx, T.qa(item), { visibility: 'public' }, b.token)).status).toBe(404)
    // b's published page never lists a's file, even by id
    const slug = slugOf()
    await post(ctx, T.settings, { slug, published: true }, b.token)
    const page = await get(ctx, P.page(slug))
    expect(page.body.documents).toEqual([])
    expect(page.body.practices).toEqual([])
    expect((await ctx.app.request(apiPath(P.download(slug, file)))).status).toBe(404)
    // a bad visibility is refused in words
    const bad = await call(ctx, 'POST', T.file(file), {
      token: a.token,
      body: { visibility: 'everyone' },
    })
    expect(bad.status).toBe(400)
  })
})

describe('the trust centre’s page as HTML (issue 40)', () => {
  it('reads without JavaScript: title, description, the chosen sections, a strict CSP; unknown and unpublished alike', async () => {
    const a = await admin(ctx)
    const slug = slugOf()
    const doc = await uploadFile(ctx, a.token, 'Security whitepaper.txt', 'We encrypt everything.')
    await uploadFile(ctx, a.token, 'HR file.txt', `Salaries ${CANARY}`)
    const item = await qa(ctx, a.token, 'Do you run <script> checks & reviews?', 'Yes, weekly.')
    await qa(ctx, a.token, 'Internal?', CANARY)
    await post(ctx, T.file(doc), { visibility: 'public' }, a.token)
    await post(ctx, T.qa(item), { visibility: 'public' }, a.token)
    await post(ctx, T.settings, { slug }, a.token)
    const before = await ctx.app.request(`/trust/${slug}`)
    const nobody = await ctx.app.request(`/trust/${slug}-nobody`)
    expect(before.status).toBe(404)
    expect(nobody.status).toBe(404)
    expect(await before.text()).toBe(await nobody.text())

    await post(
      ctx,
      T.settings,
      {
        published: true,
        overview: 'Security is our first feature.',
        sections: ['practices', 'documents', 'overview'],
      },
      a.token,
    )
    const res = await ctx.app.request(`/trust/${slug}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(res.headers.get('set-cookie')).toBeNull()
    const html = await res.text()
    expect(html).toMatch(/<title>.* Trust Center<\/title>/)
    expect(html).toContain('<meta name="description" content="Security is our first feature.">')
    // escaped, in the order chosen: practices, then documents, then the overview
    expect(html).toContain('Do you run &lt;script&gt; checks &amp; reviews?')
    const order = ['Security practices', 'Documents', 'Overview'].map((h) =>
      html.indexOf(`<h2>${h}</h2>`),
    )
    expect(order).toEqual([...order].sort((x, y) => x - y))
    expect(order[0]).toBeGreaterThan(0)
    expect(html).toContain(`href="${apiPath(P.download(slug, doc))}"`)
    expect(html).not.toContain(CANARY)
    expect(html).not.toContain('HR file')
  })
})

describe('the trust centre’s ask box (issue 40)', () => {
  it('answers from what is published, with its sources, and never from a private item', async () => {
    const a = await admin(ctx)
    const slug = slugOf()
    const shown = await qa(
      ctx,
      a.token,
      'Do you encrypt customer data at rest?',
      'Yes. Customer data is encrypted at rest with AES-256.',
    )
    await qa(
      ctx,
      a.token,
      'Do you run a bug bounty programme?',
      `Yes, privately with HackerOne ${CANARY}.`,
    )
    await post(ctx, T.qa(shown), { visibility: 'public' }, a.token)
    await post(
      ctx,
      T.settings,
      { slug, published: true, contact_email: 'security@acme.example' },
      a.token,
    )

    const known = await post(ctx, P.ask(slug), {
      question: 'Do you encrypt customer data at rest?',
    })
    expect(known.status, JSON.stringify(known.body)).toBe(200)
    expect(known.body.answered).toBe(true)
    expect(known.body.answer).toMatch(/^Yes\./)
    // spoken to a visitor: the organisation's answers are 'ours', not 'yours'
    expect(known.body.answer).not.toContain('Your answer')
    expect(known.body.citations.length).toBeGreaterThan(0)
    expect(JSON.stringify(known.body)).not.toContain(CANARY)

    const secret = await post(ctx, P.ask(slug), { question: 'Do you run a bug bounty programme?' })
    expect(secret.status).toBe(200)
    expect(secret.body).toEqual({
      answer: 'We have not published an answer to this question. Ask us at security@acme.example.',
      citations: [],
      answered: false,
    })
    // a blank question is refused in words; an unknown page takes none
    expect((await post(ctx, P.ask(slug), { question: ' ' })).status).toBe(400)
    expect((await post(ctx, P.ask(`${slug}-x`), { question: 'Do you encrypt data?' })).status).toBe(
      404,
    )
  })
})
