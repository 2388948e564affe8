import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryLimiter } from '../../../server/http/memory-limit.ts'

describe('the trust page’s per-address limit in memory (issue 40)', () => {
  afterEach(() => vi.useRealTimers())

  it('lets the limit through, refuses the next with when to come back, and forgets after the window', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') })
    const limiter = createMemoryLimiter({ limit: 3, windowMs: 60_000 })
    for (let i = 0; i < 3; i++) expect(limiter.hit('a').limited).toBe(false)
    const refused = limiter.hit('a')
    expect(refused.limited).toBe(true)
    expect(refused.retryAfterS).toBe(60)
    // another address is counted apart
    expect(limiter.hit('b').limited).toBe(false)
    vi.advanceTimersByTime(60_000)
    expect(limiter.hit('a').limited).toBe(false)
  })
})
