import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { legalDocumentSchema } from '../../contract/legal.ts'
import { parseConfig } from '../../server/config.ts'
import { createTestApp, TEST_PUBLIC_URL, withTestApp } from './support.ts'

/** Issue 30: /terms and /privacy were linked from sign-in and led to 'Page not found'. */

const read = async (
  app: { request: (path: string) => Response | Promise<Response> },
  kind: string,
) => {
  const res = await app.request(`/api/v1/legal/${kind}/`)
  return {
    status: res.status,
    body: res.status === 200 ? legalDocumentSchema.parse(await res.json()) : await res.json(),
  }
}

describe('the default legal pages', () => {
  const ctx = withTestApp()

  it('are served without signing in, say who runs the instance and that they are the default', async () => {
    const terms = await read(ctx.app, 'terms')
    expect(terms.status).toBe(200)
    const body = legalDocumentSchema.parse(terms.body)
    expect(body).toMatchObject({
      kind: 'terms',
      title: 'Terms of Service',
      url: null,
      custom: false,
    })
    const host = new URL(TEST_PUBLIC_URL).host
    expect(body.operator).toBe(`the operator of ${host}`)
    expect(body.markdown).toContain(`This instance of Quire, at ${TEST_PUBLIC_URL}, is run by`)
    expect(body.markdown).toMatch(/^## Your content$/m)

    const privacy = legalDocumentSchema.parse((await read(ctx.app, 'privacy')).body)
    expect(privacy.title).toBe('Privacy Policy')
    expect(privacy.markdown).toMatch(/^## What is kept$/m)
    // without a language model, the policy says that nothing is sent to one
    expect(privacy.markdown).toContain('This instance uses no language model')
  })

  it('answers 404 for a page that is not one of them', async () => {
    const res = await ctx.app.request('/api/v1/legal/cookies/')
    expect(res.status).toBe(404)
    expect((await res.json()).error).toBeTypeOf('string')
  })
})

describe("an operator's own legal pages", () => {
  it('serve their Markdown file, read again on each call, and send /terms to their published page', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-legal-'))
    const file = path.join(dir, 'privacy.md')
    writeFileSync(file, '# Privacy\n\nAcme Hosting keeps your data in Frankfurt.\n')
    const ctx = await createTestApp({
      distDir: dir,
      legal: {
        terms: { url: 'https://acme.example/terms' },
        privacy: { file },
        operator: 'Acme Hosting Ltd',
        contact: 'privacy@acme.example',
      },
    })
    try {
      const privacy = legalDocumentSchema.parse((await read(ctx.app, 'privacy')).body)
      expect(privacy).toMatchObject({ custom: true, url: null, operator: 'Acme Hosting Ltd' })
      expect(privacy.markdown).toContain('Acme Hosting keeps your data in Frankfurt.')
      writeFileSync(file, '# Privacy\n\nNow in Dublin.\n')
      expect(legalDocumentSchema.parse((await read(ctx.app, 'privacy')).body).markdown).toContain(
        'Now in Dublin.',
      )

      const terms = legalDocumentSchema.parse((await read(ctx.app, 'terms')).body)
      expect(terms).toMatchObject({ custom: true, url: 'https://acme.example/terms' })
      const page = await ctx.app.request('/terms')
      expect(page.status).toBe(302)
      expect(page.headers.get('location')).toBe('https://acme.example/terms')
    } finally {
      await ctx.close()
    }
  })

  it('names the operator and their address in the default text when only those are set', async () => {
    const ctx = await createTestApp({
      legal: { operator: 'Acme Hosting Ltd', contact: 'legal@acme.example' },
    })
    try {
      const terms = legalDocumentSchema.parse((await read(ctx.app, 'terms')).body)
      expect(terms.custom).toBe(false)
      expect(terms.markdown).toContain('is run by **Acme Hosting Ltd**')
      expect(terms.markdown).toContain('[legal@acme.example](mailto:legal@acme.example)')
    } finally {
      await ctx.close()
    }
  })

  it('refuses to start with a legal file that does not exist, or a link that is not http', () => {
    expect(() => parseConfig({ TERMS_FILE: '/nowhere/terms.md' })).toThrow(
      'TERMS_FILE: there is no file at /nowhere/terms.md',
    )
    expect(() => parseConfig({ PRIVACY_URL: 'ftp://acme.example/privacy' })).toThrow('PRIVACY_URL')
  })
})
