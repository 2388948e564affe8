import { describe, expect, test, vi } from 'vitest'
import { createActor } from 'xstate'
import * as view from '../../machines/clock/index.ts'
import { clockMachine, selectNow } from '../../machines/clock/index.ts'
import { CLOCK_TICK_MS } from '../../machines/constants.ts'
import { formatRelative } from '../../src/lib/format.ts'
import { testEveryPath } from './every-path.ts'

describe('clockMachine', () => {
  // the time read is the wall clock's: states are told apart by their value alone
  testEveryPath(clockMachine, [], {
    identity: () => [],
    view,
    // every state holds a time already read, never one to come
    assertState: (snapshot) => expect(selectNow(snapshot)).toBeLessThanOrEqual(Date.now()),
  })

  test('reads the time again every tick, so that "just now" becomes "1 min ago"', () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T10:00:00Z') })
    try {
      const written = new Date().toISOString()
      const clock = createActor(clockMachine).start()
      expect(formatRelative(written, selectNow(clock.getSnapshot()))).toBe('just now')
      vi.advanceTimersByTime(CLOCK_TICK_MS)
      expect(formatRelative(written, selectNow(clock.getSnapshot()))).toBe('just now')
      vi.advanceTimersByTime(CLOCK_TICK_MS)
      expect(formatRelative(written, selectNow(clock.getSnapshot()))).toBe('1 min ago')
      vi.advanceTimersByTime(4 * CLOCK_TICK_MS)
      expect(formatRelative(written, selectNow(clock.getSnapshot()))).toBe('3 min ago')
      clock.stop()
    } finally {
      vi.useRealTimers()
    }
  })
})
