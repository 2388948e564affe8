import { describe, expect, it } from 'vitest'
import { clearTokens, decodeAccessToken, readTokens, storeTokens } from '../../src/api/tokens.ts'

const token = (payload: unknown) =>
  `x.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`

describe('tokens', () => {
  it('keeps both tokens in localStorage and clears both', () => {
    storeTokens({ access: 'a', refresh: 'r' })
    expect(localStorage.getItem('access_token')).toBe('a')
    expect(localStorage.getItem('refresh_token')).toBe('r')
    expect(readTokens()).toEqual({ access: 'a', refresh: 'r' })
    clearTokens()
    expect(readTokens()).toEqual({ access: null, refresh: null })
  })

  it('reads exp and the optional user from an access token, unicode included', () => {
    const claims = decodeAccessToken(
      token({ exp: 2_000_000_000, user: { first_name: 'Zoë', email: 'z@x.io' } }),
    )
    expect(claims?.exp).toBe(2_000_000_000)
    expect(claims?.user?.first_name).toBe('Zoë')
    expect(decodeAccessToken(token({ exp: 1 }))?.user).toBeUndefined()
  })

  it('gives null for malformed tokens', () => {
    for (const bad of [null, '', 'abc', 'a.!!!.c', token({ user: {} }), token('text')]) {
      expect(decodeAccessToken(bad)).toBeNull()
    }
  })
})
