import { describe, expect, test } from 'vitest'
import { SECOND, SESSION_CHECK_INTERVAL_MS } from '../../machines/constants.ts'
import { selectIsAuthenticated, selectSessionExpired } from '../../machines/session/index.ts'
import { refreshed, refreshState, settle, start } from './session-fixtures.ts'

// The session on a simulated clock: the 60 s expiry check and its warning, the refresh it
// schedules under an hour left, and Extend Session.

describe('sessionMachine', () => {
  describe('expiry check', () => {
    test('reads the clock at sign-in and then every 60 s, not 1 ms sooner', async () => {
      const { clock, reads, login } = start({})
      await settle()
      login(7_200)
      expect(reads()).toBe(1)
      clock.increment(SESSION_CHECK_INTERVAL_MS - 1)
      expect(reads()).toBe(1)
      clock.increment(1)
      expect(reads()).toBe(2)
      clock.increment(SESSION_CHECK_INTERVAL_MS - 1)
      expect(reads()).toBe(2)
      clock.increment(1)
      expect(reads()).toBe(3)
    })

    test('warns at the first check with under 300 s left, once per token', async () => {
      const { clock, emitted, login } = start({})
      await settle()
      // 400 s left: no warning at sign-in; at the 60 s check 340 s; at 120 s, 280 s: warn
      login(400)
      expect(emitted).toEqual(['login'])
      clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(emitted).not.toContain('warning')
      clock.increment(SESSION_CHECK_INTERVAL_MS - 1)
      expect(emitted).not.toContain('warning')
      clock.increment(1)
      expect(emitted.filter((type) => type === 'warning')).toHaveLength(1)
      // later checks do not warn about the same token again
      for (let check = 0; check < 5; check++) clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(emitted.filter((type) => type === 'warning')).toHaveLength(1)
    })

    test('a token with 5 minutes or more left gives no warning', async () => {
      const { clock, emitted, login } = start({})
      await settle()
      login(300 + SESSION_CHECK_INTERVAL_MS / SECOND)
      clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(emitted).not.toContain('warning')
    })
  })

  describe('refresh schedule', () => {
    test('with an hour or more left no refresh is scheduled', async () => {
      const { actor, clock, refreshes, login } = start({})
      await settle()
      login(7_200)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      // at 3 600 s left exactly: still not under the threshold
      clock.increment(3_600 * SECOND - SESSION_CHECK_INTERVAL_MS)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      expect(refreshes()).toBe(0)
    })

    test('under an hour left: the refresh fires after remaining - 600 s, not 1 ms sooner', async () => {
      const { actor, clock, refreshes, login } = start({})
      await settle()
      login(1_800)
      expect(refreshState(actor.getSnapshot())).toBe('scheduled')
      clock.increment((1_800 - 600) * SECOND - 1)
      expect(refreshes()).toBe(0)
      clock.increment(1)
      expect(refreshes()).toBe(1)
      expect(refreshState(actor.getSnapshot())).toBe('refreshing')
    })

    test('scheduled at the first check under an hour, from the time then', async () => {
      const { actor, clock, refreshes, login } = start({})
      await settle()
      login(3_600)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      clock.increment(SESSION_CHECK_INTERVAL_MS)
      expect(refreshState(actor.getSnapshot())).toBe('scheduled')
      // 3 540 s left at 60 s: due 2 940 s later, at 3 000 s
      clock.increment((3_540 - 600) * SECOND - 1)
      expect(refreshes()).toBe(0)
      clock.increment(1)
      expect(refreshes()).toBe(1)
    })

    test('never sooner than 60 s', async () => {
      const { clock, refreshes, login } = start({})
      await settle()
      login(500)
      clock.increment(60 * SECOND - 1)
      expect(refreshes()).toBe(0)
      clock.increment(1)
      expect(refreshes()).toBe(1)
    })

    test('a successful refresh takes the new expiry without a new login event', async () => {
      const { actor, clock, emitted, login } = start({ refresh: async () => refreshed })
      await settle()
      login(1_800)
      clock.increment((1_800 - 600) * SECOND)
      await settle()
      expect(actor.getSnapshot().context.expiresAt).toBe(refreshed.exp)
      expect(refreshState(actor.getSnapshot())).toBe('unscheduled')
      expect(emitted).toEqual(['login'])
    })

    test('a failed refresh ends the session as expired', async () => {
      const { actor, clock, emitted, login } = start({
        refresh: async () => {
          throw new Error('refused')
        },
      })
      await settle()
      login(1_800)
      clock.increment((1_800 - 600) * SECOND)
      await settle()
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(selectSessionExpired(actor.getSnapshot())).toBe(true)
      expect(emitted).toEqual(['login', 'logout', 'expired'])
    })
  })

  describe('Extend Session', () => {
    test('refreshes: the warning goes and the session is extended', async () => {
      const { actor, emitted, login, refreshes } = start({ refresh: async () => refreshed })
      await settle()
      login(200)
      expect(emitted).toEqual(['login', 'warning'])
      actor.send({ type: 'session.extend' })
      await settle()
      expect(refreshes()).toBe(1)
      expect(emitted).toEqual(['login', 'warning', 'extended'])
      expect(actor.getSnapshot().context.expiresAt).toBe(refreshed.exp)
      expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    })

    test('a failed extension is reported, then the user is logged out', async () => {
      const { actor, emitted, login } = start({
        refresh: async () => {
          throw new Error('refused')
        },
      })
      await settle()
      login(200)
      actor.send({ type: 'session.extend' })
      await settle()
      expect(emitted).toEqual(['login', 'warning', 'extend.failed', 'logout'])
      expect(actor.getSnapshot().value).toBe('unauthenticated')
      expect(actor.getSnapshot().context.endedBy).toBe('logout')
    })
  })
})
