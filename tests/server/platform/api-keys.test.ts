import { describe, expect, it } from 'vitest'
import { paths } from '../../../contract/paths.ts'
import { API_KEY_TEXTS } from '../../../contract/platform.ts'
import { uploadFile } from '../answering/helpers.ts'
import { call, get, insertUser, post, signIn, type TestApp } from '../auth/helpers.ts'
import { createTestApp, withTestApp } from '../support.ts'

/**
 * API keys (issue 41): made by admins, shown once, kept hashed; a key reaches what its scopes
 * allow in its own organisation only, never people, settings, SSO, billing or a person's own
 * calls; a revocation holds from the next request; every creation, refusal and revocation audited.
 */
const ctx = withTestApp({ jobs: true })
const K = paths.platform

async function person(app: TestApp, role: 'admin' | 'approver' | 'viewer', orgId?: number) {
  const fixture = await insertUser(app.database, { role, orgId })
  return { ...fixture, token: (await signIn(app, fixture.email)).access }
}

async function keyOf(app: TestApp, token: string, scopes: string[], name = 'Sales sync') {
  const res = await post(app, K.apiKeys, { name, scopes }, token)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: number; key: string; prefix: string }
}

async function auditActions(app: TestApp, orgId: number) {
  const { rows } = await app.database.pool.query<{ action: string; detail: { reason?: string } }>(
    `select action, detail from audit_events where org_id = $1 and action like 'api_key.%'
      order by created_at, id`,
    [orgId],
  )
  return rows
}

describe('API keys (issue 41)', () => {
  it('are made by admins, shown once and listed by their prefix; bad input is said in words', async () => {
    const admin = await person(ctx, 'admin')
    const made = await post(
      ctx,
      K.apiKeys,
      { name: ' CRM ', scopes: ['write', 'read'], expires_at: '2099-01-01T00:00:00Z' },
      admin.token,
    )
    expect(made.status).toBe(201)
    expect(made.body.key).toMatch(/^qk_[A-Za-z0-9_-]{43}$/)
    expect(made.body).toMatchObject({
      name: 'CRM',
      scopes: ['read', 'write'],
      prefix: made.body.key.slice(0, 9),
      expires_at: '2099-01-01T00:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
      created_by: { id: admin.user.id, name: 'Fix Ture' },
    })
    const listed = await get(ctx, K.apiKeys, admin.token)
    expect(listed.status).toBe(200)
    expect(listed.body.results).toHaveLength(1)
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key)
    const { rows } = await ctx.database.pool.query('select key_hash from api_keys where id = $1', [
      made.body.id,
    ])
    expect(rows[0].key_hash).not.toContain(made.body.key.slice(3))

    for (const [body, words] of [
      [{ name: 'x', scopes: [] }, 'Give the key a scope'],
      [{ name: 'x', scopes: ['admin'] }, 'scopes'],
      [{ name: ' ', scopes: ['read'] }, 'Name the key'],
      [
        { name: 'x', scopes: ['read'], expires_at: '2001-01-01T00:00:00Z' },
        API_KEY_TEXTS.expiryPast,
      ],
      [{ name: 'x', scopes: ['read'], expires_at: 'tomorrow' }, 'ISO 8601'],
    ] as const) {
      const bad = await post(ctx, K.apiKeys, body, admin.token)
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(bad.body)).toContain(words)
    }
    // only admins keep keys; an approver is refused, and sees none
    const approver = await person(ctx, 'approver', admin.orgId)
    expect(
      (await post(ctx, K.apiKeys, { name: 'x', scopes: ['read'] }, approver.token)).status,
    ).toBe(403)
    expect((await get(ctx, K.apiKeys, approver.token)).status).toBe(403)
    expect((await auditActions(ctx, admin.orgId)).map((row) => row.action)).toEqual([
      'api_key.created',
    ])
  })

  it('reach what their scope allows, in their own organisation only, and never a person’s calls', async () => {
    const admin = await person(ctx, 'admin')
    const reader = await keyOf(ctx, admin.token, ['read'])
    const writer = await keyOf(ctx, admin.token, ['read', 'write'], 'Ticketing')
    const file = await uploadFile(ctx, admin.token, 'Policy.txt', 'We encrypt backups.')

    // read: lists and reads; refused (403) every change
    const files = await get(ctx, paths.files.list, reader.key)
    expect(files.status, JSON.stringify(files.body)).toBe(200)
    expect((await get(ctx, paths.files.get(file), reader.key)).status).toBe(200)
    expect((await get(ctx, paths.questionnaires.list, reader.key)).status).toBe(200)
    const refused = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you encrypt backups?', answer: 'Yes.' },
      reader.key,
    )
    expect(refused.status).toBe(403)

    // write: changes the work, attributed to the key's creator
    const added = await post(
      ctx,
      paths.knowledgeBase.qa,
      { question: 'Do you encrypt backups?', answer: 'Yes.' },
      writer.key,
    )
    expect(added.status, JSON.stringify(added.body)).toBe(201)

    // never people, settings, SSO, billing, the keys themselves, nor a person's own calls
    for (const key of [reader.key, writer.key]) {
      for (const [method, path] of [
        ['GET', paths.users.list],
        ['GET', paths.account.organization],
        ['GET', paths.sso.settings],
        ['GET', paths.account.auditLog],
        ['GET', K.apiKeys],
        ['POST', K.apiKeys],
        ['GET', paths.me.assignments],
        ['GET', paths.account.profile],
      ] as const) {
        const res = await call(ctx, method, path, {
          token: key,
          body: method === 'POST' ? {} : undefined,
        })
        expect(res.status, `${method} ${path}`).toBe(403)
        expect(res.body.error).toBe(API_KEY_TEXTS.notForKeys)
      }
      // what needs the organisation's settings is an admin's, which no key is
      expect((await post(ctx, paths.trust.settings, { overview: 'x' }, key)).status).toBe(403)
    }

    // another organisation's ids are not found; its lists are not this key's
    const other = await person(ctx, 'admin')
    const theirs = await uploadFile(ctx, other.token, 'Theirs.txt', 'Their secret.')
    expect((await get(ctx, paths.files.get(theirs), writer.key)).status).toBe(404)
    const listed = await get(ctx, paths.files.list, writer.key)
    expect(JSON.stringify(listed.body)).not.toContain('Theirs.txt')
  })

  it('stop at once when revoked or expired, or when their creator leaves; refusals are audited', async () => {
    const admin = await person(ctx, 'admin')
    const key = await keyOf(ctx, admin.token, ['read'])
    expect((await get(ctx, paths.files.list, key.key)).status).toBe(200)
    const revoked = await post(ctx, K.apiKeyRevoke(key.id), {}, admin.token)
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked_at).not.toBeNull()
    const after = await get(ctx, paths.files.list, key.key)
    expect(after.status).toBe(401)
    expect((await post(ctx, K.apiKeyRevoke(key.id), {}, admin.token)).status).toBe(409)
    // another organisation's key is not found
    const other = await person(ctx, 'admin')
    expect((await post(ctx, K.apiKeyRevoke(key.id), {}, other.token)).status).toBe(404)

    const expiring = await keyOf(ctx, admin.token, ['read'], 'Short-lived')
    await ctx.database.pool.query(
      `update api_keys set expires_at = now() - interval '1 minute' where id = $1`,
      [expiring.id],
    )
    expect((await get(ctx, paths.files.list, expiring.key)).status).toBe(401)

    const leaver = await person(ctx, 'admin', admin.orgId)
    const theirs = await keyOf(ctx, leaver.token, ['read'], 'Leaver’s')
    expect((await get(ctx, paths.files.list, theirs.key)).status).toBe(200)
    await ctx.database.pool.query(`update users set status = 'removed' where id = $1`, [
      leaver.user.id,
    ])
    expect((await get(ctx, paths.files.list, theirs.key)).status).toBe(401)
    // a made-up key is a plain 401
    expect((await get(ctx, paths.files.list, `qk_${'x'.repeat(43)}`)).status).toBe(401)

    const audit = await auditActions(ctx, admin.orgId)
    expect(audit.map((row) => row.action)).toEqual([
      'api_key.created',
      'api_key.revoked',
      'api_key.refused',
      'api_key.created',
      'api_key.refused',
      'api_key.created',
      'api_key.refused',
    ])
    expect(audit.filter((row) => row.detail.reason).map((row) => row.detail.reason)).toEqual([
      'revoked',
      'expired',
      'its creator is no longer active',
    ])
    // the key's last use is kept
    const listed = await get(ctx, K.apiKeys, admin.token)
    const used = listed.body.results.find((row: { id: number }) => row.id === key.id)
    expect(used.last_used_at).not.toBeNull()
  })
})

describe('API keys’ limit (issue 41)', () => {
  it('answers 429 with Retry-After once a key has made its calls, and other keys go on', async () => {
    const app = await createTestApp({ apiKeyLimit: { limit: 3, windowMs: 60_000 } })
    try {
      const admin = await person(app, 'admin')
      const busy = await keyOf(app, admin.token, ['read'])
      const calm = await keyOf(app, admin.token, ['read'], 'Calm')
      for (let i = 0; i < 3; i++)
        expect((await get(app, paths.files.list, busy.key)).status).toBe(200)
      const limited = await call(app, 'GET', paths.files.list, { token: busy.key })
      expect(limited.status).toBe(429)
      expect(limited.body.error).toBe(API_KEY_TEXTS.tooMany)
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await get(app, paths.files.list, calm.key)).status).toBe(200)
      // a person's session is not held by a key's limit
      expect((await get(app, paths.files.list, admin.token)).status).toBe(200)
    } finally {
      await app.close()
    }
  })
})
