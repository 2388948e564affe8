import { expect } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { makePdf } from '../../fixtures/documents.ts'
import { uploadFile } from '../answering/helpers.ts'
import { insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'

/** What the trust centre's tests share: a published page with a PDF under NDA, a request. */

/** A new organisation's admin, its published page (a fresh slug) and a PDF on it under NDA. */
export async function publishedPage(app: TestApp, extra: Record<string, unknown> = {}) {
  const admin = await insertUser(app.database, { role: 'admin' })
  const token = (await signIn(app, admin.email)).access
  const slug = `nda-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const pdf = await makePdf(
    [['Penetration test 2026', 'No critical findings remain open.']],
    'Pen test',
  )
  const file = await uploadFile(app, token, 'Pen test 2026.pdf', pdf)
  expect((await post(app, paths.trust.file(file), { visibility: 'nda' }, token)).status).toBe(200)
  const saved = await post(
    app,
    paths.trust.settings,
    { slug, published: true, nda_text: 'Do not share these documents.', ...extra },
    token,
  )
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  return { admin, token, slug, file, ndaVersion: saved.body.nda_version as number }
}

/** A visitor's request under NDA, in the page's NDA version. */
export const asking = (version: number, email: string, company = 'Prospect Ltd') => ({
  name: 'Vera Visitor',
  email,
  company,
  reason: 'Vendor review',
  nda_accepted: true,
  nda_version: version,
})
