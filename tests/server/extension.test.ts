import { describe, expect, it } from 'vitest'
import { EXTENSION_TEXTS, QUIRE_EXTENSION_ID } from '../../contract/extension.ts'
import { paths } from '../../contract/paths.ts'
import { get, insertUser, post, signIn } from './auth/helpers.ts'
import { withTestApp } from './support.ts'

/** The browser extension's hand-off (AS13): its own session, only to an allowed address. */
const ctx = withTestApp()
const allowed = `chrome-extension://${QUIRE_EXTENSION_ID}/`

describe('extension hand-off', () => {
  it('lists the allowed extensions to anyone', async () => {
    const res = await get(ctx, paths.extension.config)
    expect(res.body).toEqual({ extension_ids: [QUIRE_EXTENSION_ID] })
  })

  it('gives a signed-in user’s extension a session of its own, only at its exact address', async () => {
    const user = await insertUser(ctx.database, { role: 'viewer' })
    const session = await signIn(ctx, user.email)
    const res = await post(
      ctx,
      paths.extension.handoff,
      { redirect_uri: allowed, state: 'xyz' },
      session.access,
    )
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ expires_in: 7200, state: 'xyz' })
    expect(res.body.access_token).not.toBe(session.access)
    expect((await get(ctx, paths.account.profile, res.body.access_token)).body.user.email).toBe(
      user.email,
    )
    // a family of its own: the extension's rotation leaves the web app's session signed in
    const rotated = await post(ctx, paths.auth.tokenRefresh, { refresh: res.body.refresh_token })
    expect(rotated.status).toBe(200)
    expect((await get(ctx, paths.account.profile, session.access)).status).toBe(200)
    expect((await post(ctx, paths.auth.tokenRefresh, { refresh: session.refresh })).status).toBe(
      200,
    )
    for (const redirect_uri of [
      `${allowed}callback`,
      allowed.slice(0, -1),
      allowed.toUpperCase(),
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop/',
      'https://evil.example/',
    ]) {
      const refused = await post(
        ctx,
        paths.extension.handoff,
        { redirect_uri, state: 'xyz' },
        session.access,
      )
      expect(refused.status, redirect_uri).toBe(400)
      expect(refused.body.error).toBe(EXTENSION_TEXTS.notAllowed)
    }
    expect(
      (await post(ctx, paths.extension.handoff, { redirect_uri: allowed, state: 'xyz' })).status,
    ).toBe(401)
    expect(
      (await post(ctx, paths.extension.handoff, { redirect_uri: allowed }, session.access)).status,
    ).toBe(400)
  })
})
