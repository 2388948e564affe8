import { expect } from 'vitest'
import type { SimulatedClock } from 'xstate'

/** What the account flow tests share. */

/** A complete registration as the form sends it (spec section 3), with marketing consent. */
export const REGISTRATION = {
  email: 'ada@example.com',
  password: 'secret-123',
  organization: 'Analytical Engines',
  firstName: 'Ada',
  lastName: 'Lovelace',
  marketing_consent: true,
}

/**
 * A timer of `ms` fires on time: `observe()` is still `before` 1 ms short of it, and `after` once
 * it has run.
 */
export function expectFiresAfter<T>(
  clock: SimulatedClock,
  ms: number,
  observe: () => T,
  before: T,
  after: T,
) {
  clock.increment(ms - 1)
  expect(observe()).toEqual(before)
  clock.increment(1)
  expect(observe()).toEqual(after)
}
