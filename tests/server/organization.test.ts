import { describe, expect, it } from 'vitest'
import { AUTH_TEXTS } from '../../contract/auth-texts.ts'
import { LOGO_MAX_BYTES, ORGANIZATION_TEXTS } from '../../contract/organization.ts'
import { apiPath, paths } from '../../contract/paths.ts'
import { call, get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/**
 * The organisation's settings (name, verified email domains, answer style) and its audit log:
 * admins change them, everyone reads the settings, every change is in the log with its before and
 * after, and the log downloads as CSV.
 */

const ctx = withTestApp()

async function member(role: 'admin' | 'viewer', orgId?: number, email?: string) {
  const fixture = await insertUser(ctx.database, { role, orgId, email })
  return { ...fixture, token: (await signIn(ctx, fixture.email)).access }
}

describe('organisation settings', () => {
  it('admins rename and set the answer style; everyone reads; the log keeps before and after', async () => {
    const admin = await member('admin')
    const viewer = await member('viewer', admin.orgId)
    const changed = await post(
      ctx,
      paths.account.updateOrganization,
      { name: '  Acme Security ', answer_tone: 'formal', answer_length: 'brief' },
      admin.token,
    )
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toMatchObject({
      name: 'Acme Security',
      answer_tone: 'formal',
      answer_length: 'brief',
      verified_domains: [],
    })
    expect((await get(ctx, paths.account.organization, viewer.token)).body.name).toBe(
      'Acme Security',
    )
    const refused = await post(
      ctx,
      paths.account.updateOrganization,
      { name: 'Mine' },
      viewer.token,
    )
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(AUTH_TEXTS.permissionDenied)
    expect(
      (await post(ctx, paths.account.updateOrganization, { name: '   ' }, admin.token)).status,
    ).toBe(400)
    expect(
      (await post(ctx, paths.account.updateOrganization, { answer_tone: 'shouty' }, admin.token))
        .status,
    ).toBe(400)

    const log = await get(ctx, `${paths.account.auditLog}?action=organization.`, admin.token)
    expect(log.body.count).toBe(1)
    expect(log.body.results[0]).toMatchObject({
      action: 'organization.updated',
      actor: { id: admin.user.id, email: admin.email },
      detail: {
        before: { answer_tone: 'neutral' },
        after: { name: 'Acme Security', answer_tone: 'formal' },
      },
    })
    expect((await get(ctx, paths.account.auditLog, viewer.token)).status).toBe(403)
  })

  it('verifies a domain only of an admin’s confirmed address, never a public one, for one organisation', async () => {
    const admin = await member('admin', undefined, `owner-${Date.now()}@acme-security.test`)
    const set = (token: string, domains: string[]) =>
      post(ctx, paths.account.updateOrganization, { verified_domains: domains }, token)
    const ok = await set(admin.token, ['ACME-security.test'])
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.verified_domains).toEqual(['acme-security.test'])
    const notYours = await set(admin.token, ['acme-security.test', 'elsewhere.test'])
    expect(notYours.status).toBe(400)
    expect(notYours.body.error).toBe(
      ORGANIZATION_TEXTS.domainNotYours.replace('{domain}', 'elsewhere.test'),
    )
    // nothing half-written: the first domain stays, the refused one is not added
    expect((await get(ctx, paths.account.organization, admin.token)).body.verified_domains).toEqual(
      ['acme-security.test'],
    )
    const gmail = await member('admin', undefined, `someone-${Date.now()}@gmail.com`)
    const publicOne = await set(gmail.token, ['gmail.com'])
    expect(publicOne.status).toBe(400)
    expect(publicOne.body.error).toBe(
      ORGANIZATION_TEXTS.publicDomain.replace('{domain}', 'gmail.com'),
    )
    const rival = await member('admin', undefined, `rival-${Date.now()}@acme-security.test`)
    const taken = await set(rival.token, ['acme-security.test'])
    expect(taken.status).toBe(409)
    expect(taken.body.error).toBe(
      ORGANIZATION_TEXTS.domainTaken.replace('{domain}', 'acme-security.test'),
    )
    expect((await set(admin.token, ['not a domain'])).status).toBe(400)
    // removing frees it
    expect((await set(admin.token, [])).body.verified_domains).toEqual([])
    expect((await set(rival.token, ['acme-security.test'])).status).toBe(200)
  })

  it('downloads the audit log as CSV, with text that cannot run as a formula', async () => {
    const admin = await member('admin')
    await post(ctx, paths.account.updateOrganization, { name: '=HYPERLINK("x")' }, admin.token)
    const res = await call(ctx, 'GET', paths.account.auditLogExport, { token: admin.token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const text = String(res.body)
    const [header, first] = text.split('\r\n')
    expect(header).toBe('time,entry,actor,action,object,target,detail')
    expect(first).toContain('"organization.updated"')
    expect(first).toContain(admin.email)
    // the entry reads as a sentence, as Settings shows it
    expect(first).toContain('changed the organisation’s settings (name)')
    expect(text).not.toMatch(/(^|,)"=/m)
  })
})

describe('the organisation’s logo', () => {
  const PNG = Buffer.concat([
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    Buffer.alloc(64, 1),
  ])
  const send = (token: string, body: Buffer | string, method = 'POST') =>
    ctx.app.request(apiPath(paths.account.organizationLogo), {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body:
        method === 'POST' ? (typeof body === 'string' ? body : new Uint8Array(body)) : undefined,
    })

  it('admins set a PNG, JPEG or WebP logo everyone reads; SVG and large files are refused', async () => {
    const admin = await member('admin')
    const viewer = await member('viewer', admin.orgId)
    const stranger = await member('admin')
    expect((await get(ctx, paths.account.organizationLogo, viewer.token)).status).toBe(404)
    const set = await send(admin.token, PNG)
    expect(set.status).toBe(200)
    const image = await ctx.app.request(apiPath(paths.account.organizationLogo), {
      headers: { authorization: `Bearer ${viewer.token}` },
    })
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true)
    expect((await get(ctx, paths.account.organization, viewer.token)).body.logo_updated_at).toMatch(
      /^\d{4}-/,
    )
    // another organisation has its own (none)
    expect((await get(ctx, paths.account.organizationLogo, stranger.token)).status).toBe(404)

    const svg = await send(
      admin.token,
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    )
    expect(svg.status).toBe(415)
    expect((await svg.json()).error).toBe(ORGANIZATION_TEXTS.logoType)
    const large = await send(admin.token, Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]))
    expect(large.status).toBe(413)
    expect((await send(viewer.token, PNG)).status).toBe(403)

    expect((await send(admin.token, '', 'DELETE')).status).toBe(200)
    expect((await get(ctx, paths.account.organizationLogo, viewer.token)).status).toBe(404)
    const log = await get(ctx, `${paths.account.auditLog}?action=organization.logo`, admin.token)
    expect(log.body.results.map((entry: { action: string }) => entry.action)).toEqual([
      'organization.logo_removed',
      'organization.logo_changed',
    ])
  })
})
